import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmePath, withConfigTables } from '../../scripts/config-table.js';

describe("README's configuration tables", () => {
  it('are generated from the settings declared in src/config/ (run `npm run docs:config` after changing one)', () => {
    const readme = fs.readFileSync(readmePath, 'utf8');
    expect(readme).toBe(withConfigTables(readme));
  });
});
