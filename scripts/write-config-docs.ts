/**
 * Writes README's configuration tables from the settings declared in src/config/, which
 * test/foundation/config-docs.single.test.ts compares with README: run after changing a setting.
 *   npm run docs:config
 */
import fs from 'node:fs';
import path from 'node:path';
import { readmePath, withConfigTables } from './config-table.js';

fs.writeFileSync(readmePath, withConfigTables(fs.readFileSync(readmePath, 'utf8')));
console.log(`wrote the configuration tables of ${path.relative(process.cwd(), readmePath)}`);
