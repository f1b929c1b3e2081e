/**
 * Moving a logging folder stays O(depth), not O(tree).
 *
 *   npx tsx bench/logging-move.ts              # embedded PGlite
 *   npx tsx bench/logging-move.ts --postgres   # a throw-away PostgreSQL on loopback (needs initdb)
 *
 * Two schema-folder trees with the same 20-deep chain of folders: a small one (100 folders) and a
 * large one (10,000 folders; the rest hang off the chain and the top level). In each, the same moves
 * run through the service (lock, ancestor walk, name check, update, audit event), timed per move:
 *   - a leaf at the bottom of the chain moved back and forth between depth 19 and depth 20, and
 *   - the chain's top folder (with every descendant under it) moved between two top-level folders.
 * The baseline is a whole-tree cycle check (load every folder, walk the moved folder's descendants),
 * timed on the same trees: it grows with the tree, the real move should not.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { systemActor } from '../src/core/actor.js';
import { AuditRecorder } from '../src/core/audit-recorder.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { loggingSchemaFolders } from '../src/db/schema/index.js';
import { LogSchemaService } from '../src/modules/logging/log-schemas.js';
import { createDatabase, startPostgres } from '../test/services/postgres.js';

const DEPTH = 20;
const MOVES = 200;
const SIZES = [100, 10_000];
const usePostgres = process.argv.includes('--postgres');

type Db = Awaited<ReturnType<typeof openDatabase>>['db'];

interface Tree {
  chain: string[];
  leaf: string;
  roots: [string, string];
}

/** A fresh tree of `size` folders in its own database. */
async function buildTree(db: Db, size: number): Promise<Tree> {
  const rows: (typeof loggingSchemaFolders.$inferInsert)[] = [];
  const add = (parentId: string | null, name: string) => {
    const id = crypto.randomUUID();
    rows.push({ id, parentId, name, sortOrder: rows.length });
    return id;
  };
  const roots: [string, string] = [add(null, 'root-a'), add(null, 'root-b')];
  const chain: string[] = [];
  for (let depth = 0; depth < DEPTH; depth += 1)
    chain.push(add(depth === 0 ? roots[0] : chain[depth - 1]!, `chain-${depth}`));
  const leaf = add(chain[DEPTH - 1]!, 'leaf');
  // Filler: half under chain folders (so the moved subtree is large), half at the top level.
  for (let index = 0; rows.length < size; index += 1) {
    add(index % 2 === 0 ? chain[index % DEPTH]! : null, `filler-${index}`);
  }
  for (let offset = 0; offset < rows.length; offset += 500)
    await db.insert(loggingSchemaFolders).values(rows.slice(offset, offset + 500));
  return { chain, leaf, roots };
}

/** What a move would cost if it checked for cycles by loading the whole tree. */
async function wholeTreeCheck(db: Db, id: string, parentId: string): Promise<boolean> {
  const all = await db
    .select({ id: loggingSchemaFolders.id, parentId: loggingSchemaFolders.parentId })
    .from(loggingSchemaFolders);
  const children = new Map<string, string[]>();
  for (const row of all) {
    if (row.parentId === null) continue;
    const list = children.get(row.parentId) ?? [];
    list.push(row.id);
    children.set(row.parentId, list);
  }
  const stack = [id];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current === parentId) return true;
    stack.push(...(children.get(current) ?? []));
  }
  return false;
}

async function time(runs: number, run: (index: number) => Promise<unknown>) {
  for (let index = 0; index < 10; index += 1) await run(index); // warm-up
  const samples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    await run(index);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

async function measure(size: number, serverUrl: string | undefined) {
  const url = serverUrl ? await createDatabase(serverUrl) : undefined;
  const database = await openDatabase({ url });
  try {
    await migrate(database.db);
    const tree = await buildTree(database.db, size);
    const schemas = new LogSchemaService({ db: database.db, audit: new AuditRecorder() });
    const actor = systemActor();
    const folders = schemas.folders;
    const leafMove = await time(MOVES, (index) =>
      folders.move(actor, tree.leaf, tree.chain[index % 2 === 0 ? DEPTH - 2 : DEPTH - 1]!),
    );
    const subtreeMove = await time(MOVES, (index) =>
      folders.move(actor, tree.chain[0]!, tree.roots[index % 2 === 0 ? 1 : 0]),
    );
    const baseline = await time(Math.min(MOVES, 50), () =>
      wholeTreeCheck(database.db, tree.chain[0]!, tree.leaf),
    );
    return { size, leafMove, subtreeMove, baseline };
  } finally {
    await database.close();
  }
}

const server = usePostgres ? await startPostgres() : undefined;
let exitCode = 0;
try {
  const results = [];
  for (const size of SIZES) results.push(await measure(size, server?.url));
  const [small, large] = results as [(typeof results)[0], (typeof results)[0]];
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(
    `engine: ${usePostgres ? 'PostgreSQL' : 'PGlite'}; chain depth ${DEPTH}; median of ${MOVES} moves`,
  );
  console.log('| folders | leaf move (depth 20) | subtree move | whole-tree cycle check (baseline) |');
  console.log('|---|---|---|---|');
  for (const row of results)
    console.log(`| ${row.size} | ${fmt(row.leafMove)} | ${fmt(row.subtreeMove)} | ${fmt(row.baseline)} |`);
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  console.log(
    `ratio ${large.size}/${small.size} folders: leaf move ${ratio(large.leafMove, small.leafMove)}, ` +
      `subtree move ${ratio(large.subtreeMove, small.subtreeMove)}, baseline ${ratio(large.baseline, small.baseline)}`,
  );
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  // runuser does not always exit after forwarding SIGINT to postgres; do not wait on it forever.
  if (server) await Promise.race([server.stop(), new Promise((resolve) => setTimeout(resolve, 5000))]);
  process.exit(exitCode);
}
