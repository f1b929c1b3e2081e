import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { users } from './identity.js';

/** The kinds of database that can be registered. */
export const DATABASE_TYPES = ['keyvalue'] as const;
export type DatabaseType = (typeof DATABASE_TYPES)[number];

/** How a console command ended: answered, failed at the server or on the way, or refused by the gateway. */
export const COMMAND_STATUSES = ['ok', 'error', 'refused'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** TLS settings of a `rediss://` database; the CA is public material, never a secret. */
export interface DatabaseTls {
  /** Verify the server certificate (default true). */
  rejectUnauthorized: boolean;
  /** PEM bundle to trust instead of the system CAs. */
  caPem?: string | undefined;
  /** Name checked against the certificate and sent as SNI, when it differs from the URL's host. */
  serverName?: string | undefined;
}

/** Registered key-value databases; the password is sealed (`databases.password`). */
export const databases = pgTable('databases', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  type: text('type', { enum: DATABASE_TYPES }).notNull(),
  url: text('url').notNull(),
  username: text('username'),
  passwordSealed: text('password_sealed'),
  tls: jsonb('tls').$type<DatabaseTls>(),
  dbIndex: integer('db_index').notNull().default(0),
  allowDangerous: boolean('allow_dangerous').notNull().default(false),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Each caller's recent console commands per database (credentials masked), trimmed to the newest 50. */
export const databaseCommandHistory = pgTable(
  'database_command_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order, which is the order commands were answered in. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    databaseId: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    command: text('command').notNull(),
    commandName: text('command_name').notNull(),
    status: text('status', { enum: COMMAND_STATUSES }).notNull(),
    error: text('error'),
    durationMs: real('duration_ms'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [index('database_command_history_owner_idx').on(table.databaseId, table.userId, table.seq)],
);
