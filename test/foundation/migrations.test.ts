import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { groups } from '../../src/db/schema/index.js';
import {
  createDeclaredSchema,
  type DatabaseShape,
  declaredTableNames,
  describeDatabase,
} from '../support/database-shape.js';
import { openEmptyTestDatabase, openTestDatabase } from '../support/gateway.js';

// The migrations are hand-written SQL and the Drizzle schema is what the code queries through:
// a change to one without the other must fail here, not as a 500 or a missing 409 in production.
let migrated: Database;
let declared: Database;
let actual: DatabaseShape;
let expected: DatabaseShape;
beforeAll(async () => {
  [migrated, declared] = await Promise.all([openTestDatabase(), openEmptyTestDatabase()]);
  await createDeclaredSchema(declared.db);
  [actual, expected] = await Promise.all([describeDatabase(migrated.db), describeDatabase(declared.db)]);
});
afterAll(async () => {
  await migrated?.close();
  await declared?.close();
});

describe('migrations, compared with the Drizzle schema', () => {
  it('are compared with every table of the schema, not with an empty catalog', () => {
    expect(expected.tables).toEqual(declaredTableNames());
  });

  it('create exactly the tables the schema declares', () => {
    expect(actual.tables).toEqual(expected.tables);
  });

  it('give every column the declared type, nullability and default', () => {
    expect(actual.columns).toEqual(expected.columns);
  });

  it('create the declared primary keys, unique constraints and indexes', () => {
    expect(actual.indexes).toEqual(expected.indexes);
  });

  it('create the declared foreign keys with their on-delete actions', () => {
    expect(actual.foreignKeys).toEqual(expected.foreignKeys);
  });

  it('check each closed value list the schema declares, with the same values', () => {
    expect(actual.closedLists).toEqual(expected.closedLists);
  });
});

describe('migrations', () => {
  it('are idempotent: a second run applies nothing', async () => {
    expect(await migrate(migrated.db)).toEqual([]);
  });

  it('seed the admins group with scope *', async () => {
    const rows = await migrated.db.select().from(groups);
    expect(rows.find((group) => group.name === 'admins')?.scopes).toEqual(['*']);
  });
});
