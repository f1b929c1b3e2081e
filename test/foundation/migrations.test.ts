import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { queryRows } from '../../src/db/raw.js';
import * as schema from '../../src/db/schema/index.js';
import { openTestDatabase } from '../support/gateway.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));

describe('migrations', () => {
  it('create every table and column the Drizzle schema declares, with the same nullability', async () => {
    const columns = await queryRows<{ table_name: string; column_name: string; is_nullable: string }>(
      database.db,
      sql`select table_name, column_name, is_nullable from information_schema.columns where table_schema = 'public'`,
    );
    const actual = new Set(
      columns.map((c) => `${c.table_name}.${c.column_name}:${c.is_nullable === 'YES' ? 'null' : 'not null'}`),
    );
    for (const table of tables) {
      const config = getTableConfig(table);
      for (const column of config.columns) {
        const expected = `${config.name}.${column.name}:${column.notNull ? 'not null' : 'null'}`;
        expect(actual, expected).toContain(expected);
      }
    }
  });

  it('are idempotent: a second run applies nothing', async () => {
    expect(await migrate(database.db)).toEqual([]);
  });

  it('seed the admins group with scope *', async () => {
    const groups = await database.db.query.groups.findMany();
    expect(groups.find((group) => group.name === 'admins')?.scopes).toEqual(['*']);
  });
});
