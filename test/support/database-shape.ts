import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../src/db/client.js';
import { queryRows } from '../../src/db/raw.js';
import * as schema from '../../src/db/schema/index.js';

/**
 * A database's tables as PostgreSQL's catalog describes them, one sorted line per fact. Names of
 * indexes and constraints are left out: the hand-written migrations and Drizzle name them
 * differently, and no code depends on them (a unique violation is told by its SQLSTATE).
 */
export interface DatabaseShape {
  tables: string[];
  /** `table.column type [not] null [default expr]` */
  columns: string[];
  /** The index definition without its name; primary keys and unique constraints included. */
  indexes: string[];
  /** `table: FOREIGN KEY (...) REFERENCES other(...) [ON DELETE ...]` */
  foreignKeys: string[];
  /** `table.column: value, value` for each check that limits a column to a list of values. */
  closedLists: string[];
}

/** The migrations' own bookkeeping table, which the Drizzle schema does not declare. */
const BOOKKEEPING = 'infragate_migrations';

/**
 * Ordinary and partitioned tables, not their partitions: Drizzle cannot declare partitioning, so a
 * partitioned table (log_records) is compared as the plain table the schema declares, and the
 * partitions made at run time are no part of the schema.
 */
const TABLE = `c.relkind in ('r', 'p') and not c.relispartition`;

const CATALOG = {
  tables: `select c.relname as line from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and ${TABLE} and c.relname <> '${BOOKKEEPING}'`,
  columns: `select c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
      || case when a.attnotnull then ' not null' else ' null' end
      || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') as line
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where n.nspname = 'public' and ${TABLE} and c.relname <> '${BOOKKEEPING}'
      and a.attnum > 0 and not a.attisdropped`,
  indexes: `select regexp_replace(pg_get_indexdef(i.indexrelid), '^CREATE (UNIQUE )?INDEX \\S+ ON (ONLY )?', 'CREATE \\1INDEX ON ')
      || case when i.indisprimary then ' PRIMARY KEY' else '' end as line
    from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and ${TABLE} and c.relname <> '${BOOKKEEPING}'`,
  foreignKeys: `select c.relname || ': ' || pg_get_constraintdef(k.oid) as line
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and ${TABLE} and k.contype = 'f'`,
  checks: `select c.relname || ': ' || pg_get_constraintdef(k.oid) as line
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and ${TABLE} and k.contype = 'c'`,
} as const;

/** `CHECK ((kind = ANY (ARRAY['a'::text, 'b'::text])))` or, for one value, `CHECK ((kind = 'a'::text))`. */
const CLOSED_LIST_CHECK = /^(\w+): CHECK \(\((\w+) = (?:ANY \(ARRAY\[(.*)\]\)|('.*'::text))\)\)$/;

export async function describeDatabase(db: Db): Promise<DatabaseShape> {
  const lines = async (query: string) =>
    (await queryRows<{ line: string }>(db, sql.raw(query))).map((row) => row.line).sort();
  const closedLists = (await lines(CATALOG.checks)).flatMap((line) => {
    const match = CLOSED_LIST_CHECK.exec(line);
    if (!match) return [];
    const [, table, column, list, single] = match;
    const values = [...(list ?? single!).matchAll(/'((?:[^']|'')*)'::text/g)].map((value) => value[1]!);
    return [`${table}.${column}: ${values.sort().join(', ')}`];
  });
  return {
    tables: await lines(CATALOG.tables),
    columns: await lines(CATALOG.columns),
    indexes: await lines(CATALOG.indexes),
    foreignKeys: await lines(CATALOG.foreignKeys),
    closedLists: closedLists.sort(),
  };
}

/**
 * Creates the Drizzle schema's tables in an empty database with the SQL drizzle-kit generates for
 * them, plus a check for each closed value list (`text(name, {enum})`, which Drizzle keeps in
 * TypeScript only), so the catalog describes what the schema declares in the same words as it
 * describes the migrated database.
 */
export async function createDeclaredSchema(db: Db): Promise<void> {
  for (const statement of await declaredSchemaStatements()) await db.execute(sql.raw(statement));
  for (const table of tables()) {
    const config = getTableConfig(table);
    for (const column of config.columns) {
      if (!column.enumValues?.length) continue;
      const values = column.enumValues.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');
      await db.execute(sql.raw(`alter table "${config.name}" add check ("${column.name}" in (${values}))`));
    }
  }
}

/** drizzle-kit's SQL for the schema, from a process of its own (declared-schema-sql.ts says why). */
async function declaredSchemaStatements(): Promise<string[]> {
  const script = path.join(import.meta.dirname, 'declared-schema-sql.ts');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/** The names of the tables the Drizzle schema declares. */
export function declaredTableNames(): string[] {
  return tables()
    .map((table) => getTableConfig(table).name)
    .sort();
}

function tables(): PgTable[] {
  return (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
}
