import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { packagePath } from '../package-root.js';
import type { Db } from './client.js';
import { lockForTransaction } from './locks.js';
import { queryRows } from './raw.js';

const MIGRATIONS_DIR = packagePath('migrations');

export interface Migration {
  name: string;
  sql: string;
}

function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      name: file.replace(/\.sql$/, ''),
      sql: fs.readFileSync(path.join(dir, file), 'utf8'),
    }));
}

/**
 * Splits a migration into statements at semicolons that end a line, except inside `$$` bodies
 * (both drivers run one statement per query in a transaction).
 */
export function splitStatements(script: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inDollarBody = false;
  for (const line of script.split('\n')) {
    if (/^\s*--/.test(line) && current.length === 0) continue;
    current.push(line);
    if ((line.match(/\$\$/g) ?? []).length % 2 === 1) inDollarBody = !inDollarBody;
    if (!inDollarBody && /;\s*$/.test(line)) {
      statements.push(current.join('\n').trim());
      current = [];
    }
  }
  const rest = current.join('\n').trim();
  if (rest) statements.push(rest);
  return statements;
}

/**
 * Applies the committed, forward-only SQL migrations that this database has not seen yet, all in
 * one transaction (a failure applies none). An advisory lock makes concurrent starts of several
 * gateways take turns.
 * Returns the names applied now.
 */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  // The usual start finds every migration applied: one read, no transaction and no lock.
  const applied = await queryRows<{ name: string }>(db, sql`select name from infragate_migrations`).then(
    (rows) => new Set(rows.map((row) => row.name)),
    () => new Set<string>(),
  );
  if (migrations.every((migration) => applied.has(migration.name))) return [];
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'migrations');
    await tx.execute(sql`create table if not exists infragate_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`);
    const done = await queryRows<{ name: string }>(tx, sql`select name from infragate_migrations`);
    const applied = new Set(done.map((row) => row.name));
    const appliedNow: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      for (const statement of splitStatements(migration.sql)) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into infragate_migrations (name) values (${migration.name})`);
      appliedNow.push(migration.name);
    }
    return appliedNow;
  });
}
