import { and, asc, count, eq } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { notFound } from '../../core/errors.js';
import { fetchPage, type Page, type PageRequest } from '../../core/pagination.js';
import { containerhostRegistryCredentials } from '../../db/schema/index.js';
import type { EngineNodeService } from './engine-nodes.js';
import type { RegistryAuth } from './engine-port.js';
import { DOCKER_HUB, registryKey } from './image-references.js';
import type { RegistryCredential, RegistryLogin } from './schemas/registry-credentials.js';

type CredentialRow = typeof containerhostRegistryCredentials.$inferSelect;

const SEALED_CONTEXT = 'containerhost_registry_credentials.password';

/** The address the engine expects for a registry's credentials (Docker Hub keeps its historical one). */
export const serverAddress = (registry: string) =>
  registry === DOCKER_HUB ? 'https://index.docker.io/v1/' : registry;

const view = (row: CredentialRow): RegistryCredential => ({
  registry: row.registry,
  username: row.username,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/**
 * Registry credentials a node's pulls use when a request brings none; the password is sealed at rest.
 * Each is stored under its registry and replaced only with its password: its destination cannot
 * change without it.
 */
export class RegistryCredentialService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit' | 'secrets'> & { engineNodes: EngineNodeService },
  ) {}

  async list(nodeId: string, page: PageRequest): Promise<Page<RegistryCredential>> {
    await this.deps.engineNodes.row(nodeId);
    const where = eq(containerhostRegistryCredentials.nodeId, nodeId);
    return fetchPage(
      page,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(containerhostRegistryCredentials)
          .where(where)
          .orderBy(asc(containerhostRegistryCredentials.registry))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(containerhostRegistryCredentials).where(where),
      view,
    );
  }

  /** Stores (or replaces) the credentials of one registry for a node. */
  async save(
    actor: AuditActor,
    nodeId: string,
    registryText: string,
    login: RegistryLogin,
  ): Promise<RegistryCredential> {
    const registry = registryKey(registryText);
    const passwordSealed = this.deps.secrets.seal(login.password, SEALED_CONTEXT);
    return this.deps.db.transaction(async (tx) => {
      await this.deps.engineNodes.row(nodeId, tx);
      const values = { nodeId, registry, username: login.username, passwordSealed, updatedAt: new Date() };
      const [row] = await tx
        .insert(containerhostRegistryCredentials)
        .values(values)
        .onConflictDoUpdate({
          target: [containerhostRegistryCredentials.nodeId, containerhostRegistryCredentials.registry],
          set: values,
        })
        .returning();
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.registry_credential.saved',
        targetType: 'containerhost_registry_credential',
        targetId: row!.id,
        metadata: { nodeId, registry, username: login.username },
      });
      return view(row!);
    });
  }

  async remove(actor: AuditActor, nodeId: string, registryText: string): Promise<void> {
    const registry = registryKey(registryText);
    await this.deps.db.transaction(async (tx) => {
      await this.deps.engineNodes.row(nodeId, tx);
      const [row] = await tx
        .delete(containerhostRegistryCredentials)
        .where(this.match(nodeId, registry))
        .returning({ id: containerhostRegistryCredentials.id });
      if (!row) throw notFound({ nodeId, registry });
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.registry_credential.deleted',
        targetType: 'containerhost_registry_credential',
        targetId: row.id,
        metadata: { nodeId, registry },
      });
    });
  }

  /** The stored credentials of a node for a registry, ready for the engine; undefined when none. */
  async authFor(nodeId: string, registry: string): Promise<RegistryAuth | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(containerhostRegistryCredentials)
      .where(this.match(nodeId, registry));
    if (!row) return undefined;
    return {
      username: row.username,
      password: this.deps.secrets.open(row.passwordSealed, SEALED_CONTEXT),
      serveraddress: serverAddress(registry),
    };
  }

  private match(nodeId: string, registry: string) {
    return and(
      eq(containerhostRegistryCredentials.nodeId, nodeId),
      eq(containerhostRegistryCredentials.registry, registry),
    );
  }
}
