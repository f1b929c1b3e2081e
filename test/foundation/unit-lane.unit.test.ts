import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The unit project (`npm run test:unit`) gives feedback in seconds because its files start nothing:
// the helpers under test/ start gateways and peers, src/server.ts a gateway, src/db/client.ts a
// database. A file that needs one of them is no unit test; name it *.test.ts or *.single.test.ts.
// test/unit-support/ holds the helpers that start nothing, which unit tests may share.
const ROOT = path.resolve(import.meta.dirname, '../..');
const STARTS_SOMETHING = (file: string) =>
  (file.startsWith('test/') && !file.startsWith('test/unit-support/')) ||
  ['src/server.ts', 'src/db/client.ts'].includes(file);

const filesUnder = (dir: string, name: RegExp) =>
  fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => name.test(file))
    .map((file) => path.join(dir, file));

const unitFiles = [...filesUnder('test', /\.unit\.test\.ts$/), ...filesUnder('web/src', /\.test\.ts$/)];

/** The repository files a test file imports (relative specifiers only; packages start nothing). */
function localImports(file: string): string[] {
  const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [...source.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\s*\(?\s*'(\.[^']+)'/g)].map((match) =>
    path
      .relative(ROOT, path.resolve(ROOT, path.dirname(file), match[1] ?? match[2]!))
      .replace(/\.js$/, '.ts'),
  );
}

describe('the unit lane', () => {
  it('holds the pure tests of the gateway and of the console', () => {
    expect(new Set(unitFiles.map((file) => file.split('/')[0]))).toEqual(new Set(['test', 'web']));
  });

  it('imports no test helper, no server and no database', () => {
    const starters = unitFiles.flatMap((file) =>
      localImports(file)
        .filter(STARTS_SOMETHING)
        .map((imported) => `${file} imports ${imported}`),
    );
    expect(starters).toEqual([]);
  });
});
