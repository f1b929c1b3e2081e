import { asc, count, eq } from 'drizzle-orm';
import type { AuditActor } from '../../../core/actor.js';
import type { AuditRecorder } from '../../../core/audit-recorder.js';
import { conflictOnDuplicate, isForeignKeyViolation } from '../../../core/db-errors.js';
import type { Deps } from '../../../core/deps.js';
import type { EgressGuard } from '../../../core/egress-guard.js';
import { conflict, notFound } from '../../../core/errors.js';
import { trimmedName } from '../../../core/names.js';
import { fetchPage } from '../../../core/pagination.js';
import type { SecretBox } from '../../../core/secret-box.js';
import { containsText } from '../../../core/text-filters.js';
import type { Db } from '../../../db/client.js';
import { acmeDnsProviders } from '../../../db/schema/index.js';
import type { DnsProvider, DnsProviderCreate, DnsProviderListQuery } from '../schemas.js';
import type { DnsProviderClient } from './dns-provider.js';
import { Rfc2136Provider } from './rfc2136.js';

const SECRET_CONTEXT = 'acme_dns_providers.tsig_secret';

const viewColumns = {
  id: acmeDnsProviders.id,
  name: acmeDnsProviders.name,
  kind: acmeDnsProviders.kind,
  server: acmeDnsProviders.server,
  port: acmeDnsProviders.port,
  zone: acmeDnsProviders.zone,
  tsigKeyName: acmeDnsProviders.tsigKeyName,
  tsigAlgorithm: acmeDnsProviders.tsigAlgorithm,
  ttl: acmeDnsProviders.ttl,
  createdAt: acmeDnsProviders.createdAt,
  updatedAt: acmeDnsProviders.updatedAt,
};

/** DNS providers for dns-01 (RFC 2136 servers with their TSIG key, the secret sealed and write-only). */
export class DnsProviderService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly secrets: SecretBox;
  private readonly egress: EgressGuard;

  constructor(deps: Pick<Deps, 'db' | 'audit' | 'secrets' | 'egress'>) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.secrets = deps.secrets;
    this.egress = deps.egress;
  }

  list(filter: DnsProviderListQuery) {
    const where = filter.q ? containsText(acmeDnsProviders.name, filter.q) : undefined;
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.db
          .select(viewColumns)
          .from(acmeDnsProviders)
          .where(where)
          .orderBy(asc(acmeDnsProviders.name))
          .limit(limit)
          .offset(offset),
      this.db.select({ value: count() }).from(acmeDnsProviders).where(where),
    );
  }

  async get(id: string): Promise<DnsProvider> {
    const [row] = await this.db.select(viewColumns).from(acmeDnsProviders).where(eq(acmeDnsProviders.id, id));
    if (!row) throw notFound({ dnsProviderId: id });
    return row;
  }

  async create(actor: AuditActor, input: DnsProviderCreate): Promise<DnsProvider> {
    const name = trimmedName(input.name);
    const { tsigSecret, ...settings } = input;
    return this.db.transaction(async (tx) => {
      const [row] = await conflictOnDuplicate(
        tx
          .insert(acmeDnsProviders)
          .values({
            ...settings,
            name,
            port: input.port ?? 53,
            ttl: input.ttl ?? 60,
            tsigAlgorithm: input.tsigAlgorithm ?? 'hmac-sha256',
            zone: input.zone.toLowerCase(),
            tsigSecretSealed: this.secrets.seal(tsigSecret, SECRET_CONTEXT),
          })
          .returning(viewColumns),
        'DNS_PROVIDER_NAME_TAKEN',
        { name },
      );
      await this.audit.record(tx, actor, {
        action: 'certificates.dns_provider.created',
        targetType: 'acme_dns_provider',
        targetId: row!.id,
        metadata: { name, kind: row!.kind, server: row!.server, port: row!.port, zone: row!.zone },
      });
      return row!;
    });
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        const [row] = await tx
          .delete(acmeDnsProviders)
          .where(eq(acmeDnsProviders.id, id))
          .returning({ name: acmeDnsProviders.name });
        if (!row) throw notFound({ dnsProviderId: id });
        await this.audit.record(tx, actor, {
          action: 'certificates.dns_provider.deleted',
          targetType: 'acme_dns_provider',
          targetId: id,
          metadata: { name: row.name },
        });
      });
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      throw conflict('DNS_PROVIDER_IN_USE', {
        dnsProviderId: id,
        explanation: 'ACME certificates order through this provider; delete them first',
      });
    }
  }

  /** The provider that publishes TXT records, with its TSIG secret opened. */
  async client(id: string): Promise<DnsProviderClient> {
    const [row] = await this.db.select().from(acmeDnsProviders).where(eq(acmeDnsProviders.id, id));
    if (!row) throw new Error(`DNS provider ${id} is gone`);
    return new Rfc2136Provider({
      egress: this.egress,
      settings: { ...row, tsigSecret: this.secrets.open(row.tsigSecretSealed, SECRET_CONTEXT) },
    });
  }
}
