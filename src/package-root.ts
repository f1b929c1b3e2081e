import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root directory (beside src/, dist/, migrations/ and catalog/): the nearest one
 * above this code that holds a package.json. Found by walking up because this code sits at
 * different depths in src/ and in the bundled dist/.
 */
function findPackageRoot(): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (dir === path.dirname(dir)) throw new Error(`no package.json above ${start}`);
  }
}

const PACKAGE_ROOT = findPackageRoot();

/** A path inside the package, e.g. `packagePath('migrations')`. */
export const packagePath = (...parts: string[]) => path.join(PACKAGE_ROOT, ...parts);
