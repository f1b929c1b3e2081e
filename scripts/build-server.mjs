// Builds dist/cli.js (the `infragate` command and `npm start`) as a few bundled files rather than one
// file per module: Node 20 spends most of a start loading and resolving ~400 modules one by one
// (docs/PERFORMANCE.md, start-up). Code the CLI loads only for some commands (the server, for one)
// stays in chunks of its own, so `infragate --help` does not parse the server.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);

/**
 * Packages left in node_modules, loaded from there at run time: each finds files of its own beside
 * its code, which a bundle would not have.
 */
const EXTERNAL = [
  // Its WebAssembly and data files.
  '@electric-sql/pglite',
  // Transports start worker threads from pino's own files.
  'pino',
  // Its own package.json and the UI's static files.
  '@fastify/swagger',
  '@fastify/swagger-ui',
  // Optional native parts that packages try to load and do without.
  'pg-native',
  'bufferutil',
  'utf-8-validate',
];

/**
 * Packages imported with `import()` are loaded on first use, not at start, so bundling them gains
 * nothing; and Node's loader, not a bundle's, then decides what a CommonJS package exports (a
 * bundled `import('ioredis')` had no `Redis`). dockerode is loaded with createRequire, which a
 * bundler does not follow.
 */
const dynamicImportsStayExternal = {
  name: 'dynamic-imports-stay-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
  },
};

// Bundled CommonJS code may call require() or read __dirname, which ES modules do not define.
const COMMONJS_GLOBALS = [
  "import { createRequire as __infragateCreateRequire } from 'node:module';",
  "import { fileURLToPath as __infragateFileUrlToPath } from 'node:url';",
  'const require = __infragateCreateRequire(import.meta.url);',
  'const __filename = __infragateFileUrlToPath(import.meta.url);',
  "const __dirname = __infragateFileUrlToPath(new URL('.', import.meta.url));",
].join('\n');

const outdir = new URL('dist/', root);
fs.rmSync(new URL('cli.js', outdir), { force: true });
fs.rmSync(new URL('chunks/', outdir), { recursive: true, force: true });

await build({
  absWorkingDir: fileURLToPath(root),
  entryPoints: ['src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  plugins: [dynamicImportsStayExternal],
  banner: { js: COMMONJS_GLOBALS },
  sourcemap: true,
  logLevel: 'warning',
});
