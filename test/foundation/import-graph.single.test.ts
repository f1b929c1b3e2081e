import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';

// The import graph of the gateway and of the console, type-only imports included (a circle through
// types still ties the files together).
const graphOf = (dir: string, tsConfig: string, fileExtensions: string[]) =>
  madge(dir, {
    fileExtensions,
    tsConfig,
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });

/**
 * The layers of src/, lowest first: a file may import its own layer and those below, never one above.
 * config.ts and its settings in config/ (with the errors and the catalog file it checks) sit with core,
 * which reads the config.
 * package-root.ts, which finds the files the package ships (migrations among them), is below all.
 * agent/ is the program `infragate agent` runs on a managed host: a command, like cli/.
 */
const LAYERS: [string, (file: string) => boolean][] = [
  ['package', (file) => file === 'package-root.ts'],
  ['db', (file) => file.startsWith('db/')],
  [
    'core',
    (file) =>
      file.startsWith('core/') ||
      file.startsWith('config/') ||
      ['config.ts', 'config-error.ts', 'inference-catalog.ts'].includes(file),
  ],
  ['modules', (file) => file.startsWith('modules/')],
  ['server', (file) => ['server.ts', 'storage.ts', 'bootstrap.ts'].includes(file)],
  ['cli', (file) => file === 'cli.ts' || file.startsWith('cli/') || file.startsWith('agent/')],
];

const layerOf = (file: string): number => LAYERS.findIndex(([, holds]) => holds(file));

/** The module a file of src/modules/ belongs to (`modules/pages/routes/x.ts` → `pages`). */
const moduleOf = (file: string): string | undefined => /^modules\/([^/]+)\//.exec(file)?.[1];

/**
 * Imports from one module's files into another's (`importer → imported`). Modules meet through ports
 * in core/ (see docs/ARCHITECTURE.md); a line here is a leak still to close, so the list only shrinks:
 * a new cross-module import fails, and so does a line whose import is gone.
 */
const CROSS_MODULE_IMPORTS: string[] = [
  // A log alert rule keeps a logging query: its schema and check are logging's.
  'modules/notifications/rules.ts → modules/logging/saved-query.ts',
  'modules/notifications/schemas.ts → modules/logging/saved-query.ts',
];

describe('the import graph', { timeout: 300_000 }, () => {
  let gateway: Record<string, string[]>;
  let gatewayCircles: string[][];
  let consoleCircles: string[][];

  beforeAll(async () => {
    const [src, web] = await Promise.all([
      graphOf('src', 'tsconfig.json', ['ts']),
      graphOf('web/src', 'web/tsconfig.json', ['ts', 'tsx']),
    ]);
    gateway = src.obj();
    gatewayCircles = src.circular();
    consoleCircles = web.circular();
  }, 300_000);

  it('is read whole (every import resolved, e.g. the server registers the modules)', () => {
    expect(gateway['server.ts']).toContain('modules/index.ts');
    expect(gateway['core/deps.ts']).toContain('config.ts');
  });

  it('has no circle in the gateway', () => {
    expect(gatewayCircles).toEqual([]);
  });

  it('has no circle in the console', () => {
    expect(consoleCircles).toEqual([]);
  });

  it('runs one way in the gateway: package root → db → core → modules → server → cli', () => {
    const unplaced = Object.keys(gateway).filter((file) => layerOf(file) === -1);
    expect(unplaced).toEqual([]);
    const upward = Object.entries(gateway).flatMap(([file, imports]) =>
      imports
        .filter((imported) => layerOf(imported) > layerOf(file))
        .map((imported) => `${file} → ${imported}`),
    );
    expect(upward).toEqual([]);
  });

  it('keeps modules apart: a module imports another only where the allow-list says so', () => {
    const crossing = Object.entries(gateway).flatMap(([file, imports]) =>
      imports
        .filter((imported) => moduleOf(file) && moduleOf(imported) && moduleOf(file) !== moduleOf(imported))
        .map((imported) => `${file} → ${imported}`),
    );
    expect(crossing.sort()).toEqual([...CROSS_MODULE_IMPORTS].sort());
  });
});
