import crypto from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import {
  droppedSecretsNote,
  movedDestinations,
  requireAreaScopeToMove,
  secretsToDrop,
  withDroppedSecrets,
} from '../../core/trust-boundary.js';
import { type DatabaseTls, databases } from '../../db/schema/index.js';
import { type DatabaseRow, type KeyValueConnections, PASSWORD_CONTEXT } from './connections.js';
import type {
  Database,
  DatabaseChanges,
  DatabaseListQuery,
  DatabaseWithStatus,
  NewDatabase,
  TlsInput,
} from './schemas.js';

const toView = (row: DatabaseRow): Database => ({
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

export type DatabaseRegistryDeps = Pick<Deps, 'db' | 'audit' | 'secrets'> & {
  connections: KeyValueConnections;
};

/** Registered key-value databases: where they are, how to sign in, what the console may do there. */
export class DatabaseRegistry {
  constructor(private readonly deps: DatabaseRegistryDeps) {}

  /** The databases the actor may see (all with an area-wide scope). */
  async list(actor: Actor, filter: DatabaseListQuery) {
    const where = and(
      visibleResources(databases.id, actor, 'databases:view'),
      filter.q ? containsText(databases.name, filter.q) : undefined,
    );
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
  async get(id: string): Promise<DatabaseWithStatus> {
    const row = await this.deps.connections.row(id);
    return { ...toView(row), status: await this.deps.connections.probe(row) };
  }

  async create(actor: AuditActor, input: NewDatabase): Promise<Database> {
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

  /**
   * Changes a registration. A new host, port or scheme (not a database number) is a move: it needs
   * the area-wide databases:manage, and drops the stored password unless this change sends it again.
   */
  async update(actor: AuditActor, id: string, changes: DatabaseChanges) {
    const answer = await this.deps.db.transaction(async (tx) => {
      const [current] = await tx.select().from(databases).where(eq(databases.id, id)).for('update');
      if (!current) throw notFound({ databaseId: id });
      const target = changes.url === undefined ? undefined : normalizeUrl(changes.url);
      const moved = movedDestinations(current, { url: target?.url }, ['url']);
      requireAreaScopeToMove(actor, 'databases:manage', moved);
      const dropped = secretsToDrop(moved.length > 0, {
        password: { stored: current.passwordSealed !== null, supplied: changes.password !== undefined },
      });
      const set: Partial<typeof databases.$inferInsert> = {};
      const changed: Record<string, unknown> = {};
      if (changes.name !== undefined) set.name = changed.name = trimmedName(changes.name);
      let url = current.url;
      if (target) {
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
      if (dropped.length > 0) set.passwordSealed = null;
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
        metadata: { name: row.name, changed, ...droppedSecretsNote(dropped) },
      });
      return withDroppedSecrets(toView(row), dropped);
    });
    this.deps.connections.drop(id);
    return answer;
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
    this.deps.connections.drop(id);
  }
}
