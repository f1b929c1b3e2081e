import { count, eq } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { notFound, unprocessable } from '../../core/errors.js';
import { outboundFailure } from '../../core/outbound-errors.js';
import { fetchPage, type Page } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import {
  droppedSecretsNote,
  movedDestinations,
  secretsToDrop,
  withDroppedSecrets,
} from '../../core/trust-boundary.js';
import type { DbOrTx } from '../../db/client.js';
import { groups, identityProviders } from '../../db/schema/index.js';
import { type OidcClient, OidcProviderError } from './oidc-client.js';
import {
  checkedSettings,
  type ProviderSettings,
  type StatedSettings,
  statedSettings,
} from './provider-settings.js';
import type {
  IdentityProvider,
  IdentityProviderChange,
  IdentityProviderListQuery,
  NewIdentityProvider,
} from './schemas.js';

type ProviderRow = typeof identityProviders.$inferSelect;

export const SEALED_CLIENT_SECRET = 'identity_providers.client_secret';
/** The one redirect URI every provider sends browsers back to. */
export const callbackUrl = (publicUrl: string) => `${publicUrl}/auth/oidc/callback`;

export type ProviderDeps = Pick<Deps, 'db' | 'audit' | 'secrets' | 'config'> & { oidc: OidcClient };

/** OpenID Connect providers as an admin manages them; the client secret goes in sealed and never out. */
export class IdentityProviderService {
  constructor(private readonly deps: ProviderDeps) {}

  async list(query: IdentityProviderListQuery): Promise<Page<IdentityProvider>> {
    const where = query.q ? containsText(identityProviders.name, query.q) : undefined;
    const page = await fetchPage(
      query,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(identityProviders)
          .where(where)
          .orderBy(identityProviders.name)
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(identityProviders).where(where),
    );
    const names = await this.groupNames(this.deps.db);
    return { ...page, data: page.data.map((row) => this.record(row, names)) };
  }

  async get(id: string): Promise<IdentityProvider> {
    return this.record(await this.row(this.deps.db, id), await this.groupNames(this.deps.db));
  }

  async create(actor: AuditActor, input: NewIdentityProvider): Promise<IdentityProvider> {
    const settings = await checkedSettings(this.deps.db, statedSettings(input), this.deps.config.egress);
    await this.discover(settings.issuer);
    return this.deps.db.transaction(async (tx) => {
      const [row] = await conflictOnDuplicate(
        tx
          .insert(identityProviders)
          .values({
            ...settings,
            clientSecretSealed: this.deps.secrets.seal(input.clientSecret, SEALED_CLIENT_SECRET),
          })
          .returning(),
        'IDENTITY_PROVIDER_NAME_TAKEN',
        { name: settings.name },
      );
      await this.deps.audit.record(tx, actor, {
        action: 'users.identity_provider.created',
        targetType: 'identity_provider',
        targetId: row!.id,
        metadata: auditable(settings),
      });
      return this.record(row!, await this.groupNames(tx));
    });
  }

  /**
   * Changes the fields sent. A new issuer is discovered again, and drops the stored client secret
   * unless the change sends one: the secret goes only to the issuer it was given for.
   */
  async update(actor: AuditActor, id: string, change: IdentityProviderChange) {
    const current = await this.row(this.deps.db, id);
    const names = await this.groupNames(this.deps.db);
    const { clientSecret, ...stated } = change;
    const settings = await checkedSettings(
      this.deps.db,
      { ...this.stated(current, names), ...stated },
      this.deps.config.egress,
    );
    const moved = movedDestinations(current, { issuer: settings.issuer }, ['issuer']);
    const dropped = secretsToDrop(moved.length > 0, {
      clientSecret: { stored: current.clientSecretSealed !== null, supplied: clientSecret !== undefined },
    });
    if (settings.issuer !== current.issuer) await this.discover(settings.issuer);
    const provider = await this.deps.db.transaction(async (tx) => {
      const [row] = await conflictOnDuplicate(
        tx
          .update(identityProviders)
          .set({
            ...settings,
            ...(clientSecret === undefined
              ? {}
              : { clientSecretSealed: this.deps.secrets.seal(clientSecret, SEALED_CLIENT_SECRET) }),
            ...(dropped.length > 0 ? { clientSecretSealed: null } : {}),
            updatedAt: new Date(),
          })
          .where(eq(identityProviders.id, id))
          .returning(),
        'IDENTITY_PROVIDER_NAME_TAKEN',
        { name: settings.name },
      );
      if (!row) throw notFound({ identityProviderId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'users.identity_provider.updated',
        targetType: 'identity_provider',
        targetId: id,
        // Which fields were sent; the secret only by name.
        metadata: {
          ...auditable(settings),
          changed: Object.keys(change).sort(),
          ...droppedSecretsNote(dropped),
        },
      });
      return this.record(row, await this.groupNames(tx));
    });
    return withDroppedSecrets(provider, dropped);
  }

  async delete(actor: AuditActor, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(identityProviders)
        .where(eq(identityProviders.id, id))
        .returning({ name: identityProviders.name, issuer: identityProviders.issuer });
      if (!row) throw notFound({ identityProviderId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'users.identity_provider.deleted',
        targetType: 'identity_provider',
        targetId: id,
        metadata: row,
      });
    });
  }

  /** The provider must answer its discovery document before it is saved (422 naming why not). */
  private async discover(issuer: string): Promise<void> {
    try {
      await this.deps.oidc.discover(issuer, { fresh: true });
    } catch (error) {
      if (error instanceof OidcProviderError && error.failure !== 'unreachable')
        throw unprocessable(
          'ISSUER_DISCOVERY_FAILED',
          `${issuer}/.well-known/openid-configuration is not usable: ${error.message}`,
        );
      throw outboundFailure(error instanceof OidcProviderError ? error.cause : error, 'the issuer discovery');
    }
  }

  private async row(db: DbOrTx, id: string): Promise<ProviderRow> {
    const [row] = await db.select().from(identityProviders).where(eq(identityProviders.id, id));
    if (!row) throw notFound({ identityProviderId: id });
    return row;
  }

  private async groupNames(db: DbOrTx): Promise<Map<string, string>> {
    const rows = await db.select({ id: groups.id, name: groups.name }).from(groups);
    return new Map(rows.map((group) => [group.id, group.name]));
  }

  /** A stored provider as settings an admin would state (group ids back to names). */
  private stated(row: ProviderRow, names: Map<string, string>): StatedSettings {
    const record = this.record(row, names);
    return { ...record, groupsClaim: row.groupsClaim, defaultGroup: record.defaultGroup };
  }

  private record(row: ProviderRow, names: Map<string, string>): IdentityProvider {
    const groupMap: Record<string, string> = {};
    for (const { providerGroup, groupId } of row.groupMap) {
      const name = names.get(groupId);
      if (name) groupMap[providerGroup] = name;
    }
    return {
      id: row.id,
      name: row.name,
      issuer: row.issuer,
      clientId: row.clientId,
      scopes: row.scopes,
      groupsClaim: row.groupsClaim,
      groupMap,
      autoCreateUsers: row.autoCreateUsers,
      defaultGroup: row.defaultGroupId ? (names.get(row.defaultGroupId) ?? null) : null,
      allowedEmailDomains: row.allowedEmailDomains,
      enabled: row.enabled,
      hasClientSecret: row.clientSecretSealed !== null,
      redirectUri: callbackUrl(this.deps.config.publicUrl),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}

/** What an audit event records of a provider's settings (never the secret). */
function auditable(settings: ProviderSettings): Record<string, unknown> {
  const { name, issuer, clientId, scopes, groupsClaim, autoCreateUsers, enabled } = settings;
  return { name, issuer, clientId, scopes, groupsClaim, autoCreateUsers, enabled };
}
