import { type Static, Type } from 'typebox';
import {
  LiteralUnion,
  Name,
  NamedObject,
  Nullable,
  SearchText,
  Timestamp,
  Uuid,
  WriteOnly,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { COMMAND_STATUSES, DATABASE_TYPES } from '../../db/schema/index.js';
import { COMMAND_CLASSES } from './command-policy.js';

/** The shapes of the databases area: route schemas, and through `Static` the service's types. */

/** How many commands the history keeps per caller and database. */
export const HISTORY_SIZE = 50;

const TlsView = NamedObject('DatabaseTls', {
  rejectUnauthorized: Type.Boolean(),
  caPem: Type.Optional(Type.String()),
  serverName: Type.Optional(Type.String()),
});

export const Database = NamedObject('Database', {
  id: Uuid(),
  name: Type.String(),
  type: LiteralUnion(DATABASE_TYPES),
  url: Type.String({ description: 'redis:// or rediss:// without credentials' }),
  username: Nullable(Type.String()),
  hasPassword: Type.Boolean({ description: 'the password itself is write-only' }),
  tls: Nullable(TlsView),
  dbIndex: Type.Integer(),
  allowDangerous: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const DatabaseStatus = NamedObject('DatabaseStatus', {
  reachable: Type.Boolean(),
  serverVersion: Nullable(Type.String()),
  latencyMs: Nullable(Type.Number()),
  reason: Nullable(Type.String({ description: 'why it is unreachable, e.g. AUTH_FAILED, UNREACHABLE' })),
  error: Nullable(Type.String()),
  checkedAt: Timestamp,
});

export const DatabaseWithStatus = NamedObject('DatabaseWithStatus', {
  ...Database.properties,
  status: DatabaseStatus,
});

export const DatabaseListQuery = Type.Object({ ...PaginationQueryFields, q: SearchText() });

const TlsInput = NamedObject('DatabaseTlsInput', {
  rejectUnauthorized: Type.Optional(
    Type.Boolean({ description: 'verify the server certificate (default true)' }),
  ),
  caPem: Type.Optional(Nullable(Type.String({ maxLength: 65_536, description: 'PEM CA bundle to trust' }))),
  serverName: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 253, description: 'name to verify and send as SNI' })),
  ),
});

const RegistrationFields = {
  name: Name,
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'redis://host:port[/db] or rediss://…' }),
  username: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  password: Type.Optional(
    WriteOnly(Nullable(Type.String({ maxLength: 1024, description: 'write-only; null removes it' }))),
  ),
  tls: Type.Optional(Nullable(TlsInput)),
  dbIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 1023 })),
  allowDangerous: Type.Optional(
    Type.Boolean({ description: 'allow admin/dangerous commands (callers also need databases:admin)' }),
  ),
};

export const NewDatabase = Type.Object({ ...RegistrationFields, type: LiteralUnion(DATABASE_TYPES) });
export const DatabaseChanges = Type.Partial(Type.Object(RegistrationFields));

export const CommandLine = Type.Object({ command: Type.String({ minLength: 1, maxLength: 524_288 }) });

export const CommandResult = Type.Object({
  command: Type.String({ description: 'the command name as the server knows it, e.g. GET or CONFIG SET' }),
  class: LiteralUnion(COMMAND_CLASSES),
  result: Type.Unknown({ description: 'the reply as JSON; bytes that are not UTF-8 as {"base64": "…"}' }),
  type: Type.String({ description: 'string, binary, integer, double, boolean, array, map, null' }),
  durationMs: Type.Number(),
  truncated: Type.Boolean(),
});

export const HistoryQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_SIZE, default: HISTORY_SIZE })),
});

export const HistoryEntry = Type.Object({
  id: Uuid(),
  command: Type.String({ description: 'the command line, credentials masked' }),
  commandName: Type.String(),
  status: LiteralUnion(COMMAND_STATUSES),
  error: Nullable(Type.String()),
  durationMs: Nullable(Type.Number()),
  createdAt: Timestamp,
});

export type Database = Static<typeof Database>;
export type DatabaseStatus = Static<typeof DatabaseStatus>;
export type DatabaseWithStatus = Static<typeof DatabaseWithStatus>;
export type DatabaseListQuery = Static<typeof DatabaseListQuery>;
export type TlsInput = Static<typeof TlsInput>;
export type NewDatabase = Static<typeof NewDatabase>;
export type DatabaseChanges = Static<typeof DatabaseChanges>;
export type CommandResult = Static<typeof CommandResult>;
export type HistoryEntry = Static<typeof HistoryEntry>;
