import crypto from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import { hasScope } from '../../core/auth/scopes.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { EgressDeniedError } from '../../core/egress-guard.js';
import { AppError, forbidden, invalidField, notFound, unprocessable } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import { type DatabaseTls, databases } from '../../db/schema/index.js';
import { parseCommandLine, renderArgument } from './command-line.js';
import { CommandLog, type CommandRecord, HISTORY_SIZE } from './command-log.js';
import {
  type CommandClass,
  type CommandSpec,
  classifyCommand,
  declaredKeyCount,
  displayName,
  maskCredentials,
  resolveSpec,
} from './command-policy.js';
import { KeyValueError, KeyValuePool } from './redis.js';
import { convertReply, type ReplyType } from './reply.js';

type DatabaseRow = typeof databases.$inferSelect;

export interface DatabaseView {
  id: string;
  name: string;
  type: 'keyvalue';
  url: string;
  username: string | null;
  hasPassword: boolean;
  tls: DatabaseTls | null;
  dbIndex: number;
  allowDangerous: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface DatabaseStatus {
  reachable: boolean;
  serverVersion: string | null;
  latencyMs: number | null;
  reason: string | null;
  error: string | null;
  checkedAt: Date;
}

export interface TlsInput {
  rejectUnauthorized?: boolean | undefined;
  caPem?: string | null | undefined;
  serverName?: string | null | undefined;
}

export interface NewDatabase {
  name: string;
  type: 'keyvalue';
  url: string;
  username?: string | null | undefined;
  password?: string | null | undefined;
  tls?: TlsInput | null | undefined;
  dbIndex?: number | undefined;
  allowDangerous?: boolean | undefined;
}

export type DatabaseChanges = Partial<Omit<NewDatabase, 'type'>>;

export interface DatabaseFilter extends PageRequest {
  q?: string | undefined;
}

export interface CommandResult {
  command: string;
  class: CommandClass;
  result: unknown;
  type: ReplyType;
  durationMs: number;
  truncated: boolean;
}

const PASSWORD_CONTEXT = 'databases.password';
/**
 * How long a console command may use a registration it read before; changes made through this
 * process apply at once, changes made through another gateway instance within this time.
 */
const ROW_CACHE_MS = 2_000;
const MAX_HISTORY_TEXT = 1000;

const toView = (row: DatabaseRow): DatabaseView => ({
  id: row.id,
  name: row.name,
  type: row.type,
  url: row.url,
  username: row.username,
  hasPassword: row.passwordSealed !== null,
  tls: row.tls,
  dbIndex: row.dbIndex,
  allowDangerous: row.allowDangerous,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** A checked `redis://` / `rediss://` URL, stored without credentials or database number. */
function normalizeUrl(raw: string): { url: string; dbFromPath?: number } {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw invalidField(['url'], 'must be a redis:// or rediss:// URL');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw invalidField(['url'], 'must be a redis:// or rediss:// URL');
  if (!parsed.hostname) throw invalidField(['url'], 'must name a host');
  if (parsed.username || parsed.password)
    throw invalidField(['url'], 'must not carry credentials: send them as username and password');
  if (parsed.search || parsed.hash) throw invalidField(['url'], 'must not have a query or fragment');
  const path = parsed.pathname.replace(/^\/+/, '');
  if (path !== '' && !/^\d{1,4}$/.test(path))
    throw invalidField(['url'], 'path may only be a database number, e.g. redis://host:6379/2');
  return {
    url: `${parsed.protocol}//${parsed.host}`,
    ...(path !== '' ? { dbFromPath: Number(path) } : {}),
  };
}

function normalizeTls(url: string, input: TlsInput | null | undefined): DatabaseTls | null {
  const secure = url.startsWith('rediss:');
  if (!secure) {
    if (input) throw invalidField(['tls'], 'applies only to rediss:// URLs');
    return null;
  }
  const tls: DatabaseTls = { rejectUnauthorized: input?.rejectUnauthorized ?? true };
  if (input?.caPem) {
    try {
      new crypto.X509Certificate(input.caPem);
    } catch {
      throw invalidField(['tls', 'caPem'], 'must be one or more PEM certificates');
    }
    tls.caPem = input.caPem;
  }
  if (input?.serverName) tls.serverName = input.serverName.trim();
  return tls;
}

const optionalText = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null || value.trim() === '' ? null : value;

/** Registered key-value databases and the command console over them. */
export class DatabaseService {
  private readonly pools = new Map<string, { version: number; pool: Promise<KeyValuePool> }>();
  private readonly rows = new Map<string, { row: DatabaseRow; until: number }>();
  private readonly log: CommandLog;

  constructor(private readonly deps: Deps) {
    this.log = new CommandLog(deps.db, deps.audit);
    deps.onClose(async () => {
      await this.log.flush();
      for (const id of [...this.pools.keys()]) this.dropPool(id);
    });
  }

  async list(filter: DatabaseFilter) {
    const where = filter.q ? containsText(databases.name, filter.q) : undefined;
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(databases)
          .where(where)
          .orderBy(databases.name)
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(databases).where(where),
      toView,
    );
  }

  /** The database with a live check of its server: reachable, version, round trip. */
  async get(id: string): Promise<DatabaseView & { status: DatabaseStatus }> {
    const row = await this.row(id);
    return { ...toView(row), status: await this.probe(row) };
  }

  async create(actor: AuditActor, input: NewDatabase): Promise<DatabaseView> {
    const name = trimmedName(input.name);
    const target = normalizeUrl(input.url);
    const tls = normalizeTls(target.url, input.tls);
    const password = optionalText(input.password);
    const values = {
      name,
      type: input.type,
      url: target.url,
      username: optionalText(input.username) ?? null,
      passwordSealed: password ? this.deps.secrets.seal(password, PASSWORD_CONTEXT) : null,
      tls,
      dbIndex: input.dbIndex ?? target.dbFromPath ?? 0,
      allowDangerous: input.allowDangerous ?? false,
      createdBy: actor.userId,
    };
    return this.deps.db.transaction(async (tx) => {
      const [row] = (await conflictOnDuplicate(
        tx.insert(databases).values(values).returning(),
        'DATABASE_NAME_TAKEN',
        { name },
      )) as [DatabaseRow];
      await this.deps.audit.record(tx, actor, {
        action: 'databases.database.created',
        targetType: 'database',
        targetId: row.id,
        metadata: {
          name,
          type: row.type,
          url: row.url,
          username: row.username,
          withPassword: row.passwordSealed !== null,
          tls: row.tls !== null,
          dbIndex: row.dbIndex,
          allowDangerous: row.allowDangerous,
        },
      });
      return toView(row);
    });
  }

  async update(actor: AuditActor, id: string, changes: DatabaseChanges): Promise<DatabaseView> {
    const view = await this.deps.db.transaction(async (tx) => {
      const [current] = await tx.select().from(databases).where(eq(databases.id, id)).for('update');
      if (!current) throw notFound({ databaseId: id });
      const set: Partial<typeof databases.$inferInsert> = {};
      const changed: Record<string, unknown> = {};
      if (changes.name !== undefined) set.name = changed.name = trimmedName(changes.name);
      let url = current.url;
      if (changes.url !== undefined) {
        const target = normalizeUrl(changes.url);
        url = set.url = changed.url = target.url;
        if (target.dbFromPath !== undefined && changes.dbIndex === undefined)
          set.dbIndex = changed.dbIndex = target.dbFromPath;
      }
      if (changes.tls !== undefined || changes.url !== undefined) {
        const tlsInput =
          changes.tls !== undefined ? changes.tls : url.startsWith('rediss:') ? current.tls : null;
        set.tls = normalizeTls(url, tlsInput);
        changed.tls = set.tls !== null;
      }
      if (changes.username !== undefined) set.username = changed.username = optionalText(changes.username);
      if (changes.password !== undefined) {
        const password = optionalText(changes.password);
        set.passwordSealed = password ? this.deps.secrets.seal(password, PASSWORD_CONTEXT) : null;
        changed.password = password ? 'replaced' : 'removed';
      }
      if (changes.dbIndex !== undefined) set.dbIndex = changed.dbIndex = changes.dbIndex;
      if (changes.allowDangerous !== undefined)
        set.allowDangerous = changed.allowDangerous = changes.allowDangerous;
      const [row] = (await conflictOnDuplicate(
        tx
          .update(databases)
          .set({ ...set, updatedAt: new Date() })
          .where(eq(databases.id, id))
          .returning(),
        'DATABASE_NAME_TAKEN',
        { name: set.name },
      )) as [DatabaseRow];
      await this.deps.audit.record(tx, actor, {
        action: 'databases.database.updated',
        targetType: 'database',
        targetId: id,
        metadata: { name: row.name, changed },
      });
      return toView(row);
    });
    this.dropPool(id);
    return view;
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.delete(databases).where(eq(databases.id, id)).returning();
      if (!row) throw notFound({ databaseId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'databases.database.deleted',
        targetType: 'database',
        targetId: id,
        metadata: { name: row.name, url: row.url },
      });
    });
    this.dropPool(id);
  }

  async history(actor: Actor, id: string, limit = HISTORY_SIZE) {
    await this.row(id);
    return this.log.history(id, actor.userId, Math.min(limit, HISTORY_SIZE));
  }

  /**
   * Runs one console command. The caller's scope must cover the command's class as the server
   * itself describes it (COMMAND INFO); admin commands also need the database's allowDangerous.
   * Every attempt that names a database is audited and kept in the caller's history.
   */
  async runCommand(actor: Actor, id: string, line: string): Promise<CommandResult> {
    const parsed = parseCommandLine(line);
    if (!parsed.ok) throw invalidField(['command'], parsed.error);
    if (parsed.args.length === 0) throw invalidField(['command'], 'must contain a command');
    const args = parsed.args;
    const words = args.map((arg) => arg.toString('latin1'));
    const row = await this.cachedRow(id);

    let text = maskCredentials(args.map((arg) => renderArgument(arg))).join(' ');
    if (text.length > MAX_HISTORY_TEXT) text = `${text.slice(0, MAX_HISTORY_TEXT)}…`;
    const record: CommandRecord = {
      actor,
      databaseId: id,
      command: text,
      commandName: words[0]!.toUpperCase().slice(0, 64),
      commandClass: null,
      keyCount: null,
      argCount: args.length - 1,
      status: 'refused',
      reason: null,
      error: null,
      durationMs: null,
    };

    try {
      const pool = await this.pool(row);
      const known = await pool.commandSpec(words[0]!);
      let spec: CommandSpec | null = null;
      let commandClass: CommandClass = 'read';
      if (known) {
        spec = resolveSpec(known, words);
        record.commandName = displayName(spec);
        const verdict = classifyCommand(spec, words);
        if (!verdict.allowed) throw unprocessable(verdict.reason, verdict.explanation);
        commandClass = record.commandClass = verdict.commandClass;
        if (!hasScope(actor.scopes, verdict.scope)) {
          throw forbidden({
            reason: 'COMMAND_SCOPE_REQUIRED',
            explanation: `${record.commandName} is a ${commandClass} command and needs the scope ${verdict.scope}`,
            requiredScope: verdict.scope,
            commandClass,
          });
        }
        if (commandClass === 'admin' && !row.allowDangerous) {
          throw unprocessable(
            'DANGEROUS_COMMANDS_DISABLED',
            `${record.commandName} is an admin/dangerous command and this database does not allow them; a databases:manage holder can set allowDangerous on it`,
          );
        }
      }
      // A command the server does not know is still sent: the server's dispatcher uses the same
      // command table as COMMAND INFO, so it can only answer with its own error.
      const keyCountPromise = spec
        ? Promise.resolve(declaredKeyCount(spec, args.length) ?? pool.keyCount(args))
        : Promise.resolve(undefined);
      const started = performance.now();
      let reply: unknown;
      try {
        reply = await pool.run(args);
      } finally {
        record.durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      }
      if (!spec) {
        // Known to the server after all (e.g. a module loaded since): refuse to guess its class.
        throw unprocessable('UNCLASSIFIED_COMMAND', 'the server did not describe this command; try again');
      }
      record.keyCount = (await keyCountPromise) ?? null;
      const converted = convertReply(reply, this.deps.config.keyvalue.maxReplyBytes);
      record.status = 'ok';
      await this.log.append(record);
      return {
        command: record.commandName,
        class: commandClass,
        result: converted.result,
        type: converted.type,
        durationMs: record.durationMs,
        truncated: converted.truncated,
      };
    } catch (error) {
      const failure = this.commandFailure(error, record);
      await this.log.append(record);
      throw failure;
    }
  }

  /** Maps what went wrong to the contract's errors and notes it in the record. */
  private commandFailure(error: unknown, record: CommandRecord): unknown {
    if (error instanceof AppError) {
      const details = error.details as { reason?: string } | undefined;
      record.status = 'refused';
      record.reason = details?.reason ?? error.code;
      return error;
    }
    const failure = this.connectionFailure(error);
    if (!failure) {
      record.status = 'error';
      record.reason = 'INTERNAL';
      return error;
    }
    record.status = 'error';
    record.reason = failure.reason;
    record.error = failure.serverError ?? failure.explanation;
    if (failure.reason === 'COMMAND_ERROR' && /unknown command/i.test(failure.serverError ?? '')) {
      return unprocessable('UNKNOWN_COMMAND', `the server does not know ${record.commandName}`, {
        serverError: failure.serverError,
      });
    }
    return unprocessable(failure.reason, failure.explanation, {
      ...(failure.serverError ? { serverError: failure.serverError } : {}),
    });
  }

  private connectionFailure(
    error: unknown,
  ): { reason: string; explanation: string; serverError?: string } | undefined {
    if (error instanceof EgressDeniedError) {
      return {
        reason: 'EGRESS_DENIED',
        explanation: `connections to ${error.host} (${error.address}) are refused: ${error.rule}`,
      };
    }
    if (!(error instanceof KeyValueError)) {
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
        return { reason: 'UNREACHABLE', explanation: `the database host could not be resolved (${code})` };
      return undefined;
    }
    switch (error.kind) {
      case 'auth':
        return {
          reason: 'AUTH_FAILED',
          explanation: `the server refused the registered credentials: ${error.message}`,
          serverError: error.message,
        };
      case 'tls':
        return {
          reason: 'TLS_FAILED',
          explanation: `the TLS handshake failed (check tls.caPem, tls.serverName or tls.rejectUnauthorized): ${error.message}`,
        };
      case 'timeout':
        return { reason: 'TIMEOUT', explanation: `the server did not answer in time: ${error.message}` };
      case 'reply':
        return {
          reason: 'COMMAND_ERROR',
          explanation: `the server refused the command: ${error.message}`,
          serverError: error.message,
        };
      default:
        return { reason: 'UNREACHABLE', explanation: `the server could not be reached: ${error.message}` };
    }
  }

  private async probe(row: DatabaseRow): Promise<DatabaseStatus> {
    const checkedAt = new Date();
    try {
      const pool = await this.pool(row);
      const { serverVersion, latencyMs } = await pool.probe();
      return {
        reachable: true,
        serverVersion,
        latencyMs: Math.round(latencyMs * 1000) / 1000,
        reason: null,
        error: null,
        checkedAt,
      };
    } catch (error) {
      const failure = this.connectionFailure(error);
      if (!failure) throw error;
      return {
        reachable: false,
        serverVersion: null,
        latencyMs: null,
        reason: failure.reason,
        error: failure.explanation,
        checkedAt,
      };
    }
  }

  /** The registration for the console's hot path (see ROW_CACHE_MS). */
  private async cachedRow(id: string): Promise<DatabaseRow> {
    const now = Date.now();
    const cached = this.rows.get(id);
    if (cached && cached.until > now) return cached.row;
    const row = await this.row(id);
    if (this.rows.size > 10_000) this.rows.clear();
    this.rows.set(id, { row, until: now + ROW_CACHE_MS });
    return row;
  }

  private async row(id: string): Promise<DatabaseRow> {
    const [row] = await this.deps.db.select().from(databases).where(eq(databases.id, id));
    if (!row) throw notFound({ databaseId: id });
    return row;
  }

  /** The pool of a database, rebuilt when its registration changed (here or in another instance). */
  private pool(row: DatabaseRow): Promise<KeyValuePool> {
    const version = row.updatedAt.getTime();
    const entry = this.pools.get(row.id);
    if (entry && entry.version === version) return entry.pool;
    this.dropPool(row.id);
    const pool = this.openPool(row);
    this.pools.set(row.id, { version, pool });
    pool.catch(() => {
      if (this.pools.get(row.id)?.pool === pool) this.pools.delete(row.id);
    });
    return pool;
  }

  private async openPool(row: DatabaseRow): Promise<KeyValuePool> {
    const url = new URL(row.url);
    const hostName = url.hostname.replace(/^\[|\]$/g, '');
    const address = await this.deps.egress.resolve(hostName);
    const { keyvalue } = this.deps.config;
    return new KeyValuePool(
      {
        host: address,
        port: url.port ? Number(url.port) : 6379,
        hostName,
        username: row.username ?? undefined,
        password: row.passwordSealed
          ? this.deps.secrets.open(row.passwordSealed, PASSWORD_CONTEXT)
          : undefined,
        tls: row.tls ?? undefined,
        db: row.dbIndex,
      },
      {
        size: keyvalue.poolSize,
        connectTimeoutMs: keyvalue.connectTimeoutMs,
        commandTimeoutMs: keyvalue.commandTimeoutMs,
      },
    );
  }

  private dropPool(id: string): void {
    this.rows.delete(id);
    const entry = this.pools.get(id);
    if (!entry) return;
    this.pools.delete(id);
    entry.pool.then((pool) => pool.close()).catch(() => {});
  }
}
