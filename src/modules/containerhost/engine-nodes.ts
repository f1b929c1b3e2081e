import { and, asc, count, eq, or } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Actor, AuditActor } from '../../core/actor.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { notFound, unprocessable, type ValidationIssue, validationError } from '../../core/errors.js';
import { isOnOrUnder, realPathOf } from '../../core/host-paths.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import {
  changedFields,
  destinationMoved,
  requireAreaScopeToMove,
  type StoredSecret,
  secretsToDrop,
  withDroppedSecrets,
} from '../../core/trust-boundary.js';
import type { DbOrTx } from '../../db/client.js';
import { containerhostNodes, containerhostRegistryCredentials } from '../../db/schema/index.js';
import type { DockerEngine } from './docker.js';
import { connectEngine } from './docker-client.js';
import { translateEngineError } from './docker-errors.js';
import { type Endpoint, parseEndpoint } from './engine-endpoints.js';
import type { EnginePort } from './engine-port.js';
import type {
  EngineNode,
  EngineNodeChanges,
  EngineNodeRegistration,
  EngineNodeWithEngine,
} from './schemas/engine-nodes.js';
import type { ListQuery } from './schemas/params.js';

/**
 * Deletes the stored credentials of a node whose engine moved: its pulls hand them to the engine, so
 * they would follow the node to the new one. Answers their registries.
 */
export async function dropRegistryCredentials(tx: DbOrTx, nodeId: string): Promise<string[]> {
  const rows = await tx
    .delete(containerhostRegistryCredentials)
    .where(eq(containerhostRegistryCredentials.nodeId, nodeId))
    .returning({ registry: containerhostRegistryCredentials.registry });
  return rows.map((row) => row.registry).sort();
}

type EngineNodeRow = typeof containerhostNodes.$inferSelect;

const SECRET_COLUMNS = {
  tlsCa: { column: 'tlsCaSealed', context: 'containerhost_nodes.tls_ca' },
  tlsCert: { column: 'tlsCertSealed', context: 'containerhost_nodes.tls_cert' },
  tlsKey: { column: 'tlsKeySealed', context: 'containerhost_nodes.tls_key' },
  sshPrivateKey: { column: 'sshKeySealed', context: 'containerhost_nodes.ssh_key' },
} as const;
type SecretKey = keyof typeof SECRET_COLUMNS;
const SECRET_KEYS = Object.keys(SECRET_COLUMNS) as SecretKey[];

/** Engine clients kept for reuse, one per node. */
const ENGINE_CLIENTS = 500;

const PEM = /-----BEGIN [A-Z0-9 ]+-----[\s\S]+-----END [A-Z0-9 ]+-----/;

function toView(row: EngineNodeRow): EngineNode {
  const endpoint = parseEndpoint(row.endpoint);
  return {
    id: row.id,
    name: row.name,
    endpoint: row.endpoint,
    transport: 'kind' in endpoint ? endpoint.kind : 'unix',
    tls: { ca: row.tlsCaSealed !== null, cert: row.tlsCertSealed !== null, key: row.tlsKeySealed !== null },
    hasSshKey: row.sshKeySealed !== null,
    helperImage: row.helperImage,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Docker Engine endpoints the gateway manages; the only place that opens engine connections. */
export class EngineNodeService {
  /**
   * Engine clients by node, reused while the node is unchanged. Bounded: a node deleted by another
   * gateway process is never deleted here, and an evicted client is rebuilt on its next use.
   */
  private readonly engines = new LRUCache<string, { updatedAt: number; engine: DockerEngine }>({
    max: ENGINE_CLIENTS,
  });

  constructor(private readonly deps: Pick<Deps, 'db' | 'audit' | 'secrets' | 'egress' | 'config'>) {}

  /** The nodes the actor may see (all with an area-wide scope). */
  async list(actor: Actor, request: ListQuery) {
    const where = and(
      visibleResources(containerhostNodes.id, actor, 'containerhost:view'),
      request.q
        ? or(
            containsText(containerhostNodes.name, request.q),
            containsText(containerhostNodes.endpoint, request.q),
          )
        : undefined,
    );
    return fetchPage(
      request,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(containerhostNodes)
          .where(where)
          .orderBy(asc(containerhostNodes.name))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(containerhostNodes).where(where),
      toView,
    );
  }

  async row(nodeId: string, db: DbOrTx = this.deps.db): Promise<EngineNodeRow> {
    if (!isUuid(nodeId)) throw notFound({ nodeId });
    const [row] = await db.select().from(containerhostNodes).where(eq(containerhostNodes.id, nodeId));
    if (!row) throw notFound({ nodeId });
    return row;
  }

  async get(nodeId: string): Promise<EngineNodeWithEngine> {
    const row = await this.row(nodeId);
    const engine = await this.engineFor(row);
    const version = await engine.version();
    return {
      ...toView(row),
      engine: {
        reachable: true,
        version: version.Version,
        apiVersion: version.ApiVersion,
        os: version.Os ?? null,
        arch: version.Arch ?? null,
        kernelVersion: version.KernelVersion ?? null,
        components: (version.Components ?? []).map((c) => `${c.Name} ${c.Version}`),
      },
    };
  }

  /** The engine of a node, for the other services of this module. */
  async engine(nodeId: string): Promise<{ node: EngineNodeRow; engine: EnginePort }> {
    const node = await this.row(nodeId);
    return { node, engine: await this.engineFor(node) };
  }

  async create(actor: AuditActor, input: EngineNodeRegistration): Promise<EngineNode> {
    const values = this.checkedValues(input, undefined);
    return this.deps.db.transaction(async (tx) => {
      const [row] = (await conflictOnDuplicate(
        tx
          .insert(containerhostNodes)
          .values(values as typeof containerhostNodes.$inferInsert)
          .returning(),
        'NODE_NAME_TAKEN',
        { name: values.name },
      )) as [EngineNodeRow];
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.node.created',
        targetType: 'containerhost_node',
        targetId: row.id,
        metadata: { name: row.name, endpoint: row.endpoint, secretsSet: secretNames(input) },
      });
      return toView(row);
    });
  }

  /**
   * Changes a node. Its endpoint is its boundary: changing it needs `containerhost:manage` on the
   * whole area, as registering a node does. A new destination (scheme, host, port or socket; the
   * ssh user is not one) drops the node's TLS material and SSH key unless the request gives them
   * again, and its stored registry credentials (the engine receives them with every pull).
   */
  async update(actor: AuditActor, nodeId: string, input: EngineNodeChanges) {
    return this.deps.db.transaction(async (tx) => {
      const current = await this.row(nodeId, tx);
      const endpoint = input.endpoint?.trim();
      requireAreaScopeToMove(
        actor,
        'containerhost:manage',
        changedFields(current, { endpoint }, ['endpoint']),
      );
      const moved = destinationMoved(current.endpoint, endpoint);
      const registries = moved ? await dropRegistryCredentials(tx, nodeId) : [];
      const dropped = secretsToDrop(moved, {
        ...storedSecrets(current, input),
        registryCredentials: { stored: registries.length > 0, supplied: false },
      });
      const cleared = Object.fromEntries(dropped.map((key) => [key, null]));
      const values = this.checkedValues({ ...input, ...cleared }, current);
      const [row] = (await conflictOnDuplicate(
        tx
          .update(containerhostNodes)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(containerhostNodes.id, nodeId))
          .returning(),
        'NODE_NAME_TAKEN',
        { name: values.name },
      )) as [EngineNodeRow];
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.node.updated',
        targetType: 'containerhost_node',
        targetId: nodeId,
        metadata: {
          name: row.name,
          endpoint: row.endpoint,
          changed: Object.keys(input).filter((key) => !(key in SECRET_COLUMNS)),
          secretsSet: secretNames(input),
          secretsCleared: SECRET_KEYS.filter((key) => input[key] === null),
          droppedSecrets: dropped,
          ...(registries.length > 0 ? { droppedRegistryCredentials: registries } : {}),
        },
      });
      return withDroppedSecrets(toView(row), dropped);
    });
  }

  async remove(actor: AuditActor, nodeId: string): Promise<void> {
    if (!isUuid(nodeId)) throw notFound({ nodeId });
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(containerhostNodes)
        .where(eq(containerhostNodes.id, nodeId))
        .returning({ name: containerhostNodes.name, endpoint: containerhostNodes.endpoint });
      if (!row) throw notFound({ nodeId });
      this.engines.delete(nodeId);
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.node.deleted',
        targetType: 'containerhost_node',
        targetId: nodeId,
        metadata: row,
      });
    });
  }

  /**
   * The client of a node, reused while the node and the address its host resolves to are unchanged.
   * Where it connects is checked on every use, a reused client too (DNS may have moved the host).
   */
  private async engineFor(row: EngineNodeRow): Promise<DockerEngine> {
    const endpoint = parseEndpoint(row.endpoint);
    if ('error' in endpoint) throw validationError([{ path: ['endpoint'], message: endpoint.error }]);
    const address = await this.reach(endpoint);
    const cached = this.engines.get(row.id);
    if (cached && cached.updatedAt === row.updatedAt.getTime() && cached.engine.address === address)
      return cached.engine;
    const open = (key: SecretKey) => {
      const sealed = row[SECRET_COLUMNS[key].column];
      return sealed === null ? undefined : this.deps.secrets.open(sealed, SECRET_COLUMNS[key].context);
    };
    const credentials = {
      tlsCa: open('tlsCa'),
      tlsCert: open('tlsCert'),
      tlsKey: open('tlsKey'),
      sshKey: open('sshPrivateKey'),
    };
    const engine = connectEngine(row.id, endpoint, credentials, this.deps.config.dockerTimeoutMs, address);
    this.engines.set(row.id, { updatedAt: row.updatedAt.getTime(), engine });
    return engine;
  }

  /**
   * Where an engine may be reached: a unix socket INFRAGATE_ENGINE_SOCKETS allows, or a remote host
   * whose every address the egress policy allows; answers the checked address, the one to connect to.
   */
  private async reach(endpoint: Endpoint): Promise<string | undefined> {
    if (endpoint.kind === 'unix') {
      this.allowSocket(endpoint.socketPath);
      return undefined;
    }
    return this.deps.egress.resolve(endpoint.host).catch((error: unknown) => {
      throw translateEngineError(error, {});
    });
  }

  /**
   * A local socket reaches the gateway's own host, so the operator decides which ones nodes may
   * use (INFRAGATE_ENGINE_SOCKETS, compared by real path); unset, any.
   */
  private allowSocket(socketPath: string): void {
    const allowed = this.deps.config.engineSockets;
    if (allowed === undefined) return;
    const real = realPathOf(socketPath);
    if (allowed.some((entry) => isOnOrUnder(entry, real))) return;
    throw unprocessable(
      'ENGINE_SOCKET_NOT_ALLOWED',
      `${socketPath} is not a socket INFRAGATE_ENGINE_SOCKETS allows (the operator's list of engine sockets on the gateway's host)`,
      { socketPath, allowedSockets: allowed },
    );
  }

  /** Validates the merged node and answers the columns to write (secrets sealed). */
  private checkedValues(
    input: EngineNodeChanges,
    current: EngineNodeRow | undefined,
  ): Partial<EngineNodeRow> {
    const issues: ValidationIssue[] = [];
    const values: Partial<EngineNodeRow> = {};
    if (input.name !== undefined) values.name = trimmedName(input.name);
    const endpointText = input.endpoint?.trim() ?? current?.endpoint ?? '';
    const endpoint = parseEndpoint(endpointText);
    if ('error' in endpoint) issues.push({ path: ['endpoint'], message: endpoint.error });
    if (input.endpoint !== undefined) values.endpoint = endpointText;
    if (input.helperImage !== undefined) values.helperImage = input.helperImage?.trim() || null;

    const has = (key: SecretKey) => {
      const given = input[key];
      if (given === null) return false;
      if (given !== undefined) return true;
      return current ? current[SECRET_COLUMNS[key].column] !== null : false;
    };
    for (const key of SECRET_KEYS) {
      const given = input[key];
      if (given === undefined) continue;
      if (given === null) {
        values[SECRET_COLUMNS[key].column] = null;
        continue;
      }
      if (!PEM.test(given)) issues.push({ path: [key], message: 'must be PEM text' });
      values[SECRET_COLUMNS[key].column] = this.deps.secrets.seal(given, SECRET_COLUMNS[key].context);
    }
    const kind = 'kind' in endpoint ? endpoint.kind : undefined;
    if (kind && kind !== 'tcp')
      for (const key of ['tlsCa', 'tlsCert', 'tlsKey'] as const)
        if (has(key)) issues.push({ path: [key], message: 'TLS material applies to tcp:// endpoints only' });
    if (kind && kind !== 'ssh' && has('sshPrivateKey'))
      issues.push({ path: ['sshPrivateKey'], message: 'an SSH key applies to ssh:// endpoints only' });
    if (kind === 'tcp' && has('tlsCert') !== has('tlsKey'))
      issues.push({
        path: [has('tlsCert') ? 'tlsKey' : 'tlsCert'],
        message: 'tlsCert and tlsKey go together',
      });
    if (issues.length > 0) throw validationError(issues);
    if (input.endpoint !== undefined && 'kind' in endpoint && endpoint.kind === 'unix')
      this.allowSocket(endpoint.socketPath);
    return values;
  }
}

function secretNames(input: EngineNodeChanges): string[] {
  return SECRET_KEYS.filter((key) => typeof input[key] === 'string');
}

/** Which of its secrets a node holds, and which of them a change gives (a value, or null to clear it). */
function storedSecrets(row: EngineNodeRow, input: EngineNodeChanges): Record<string, StoredSecret> {
  return Object.fromEntries(
    SECRET_KEYS.map((key) => [
      key,
      { stored: row[SECRET_COLUMNS[key].column] !== null, supplied: input[key] !== undefined },
    ]),
  );
}
