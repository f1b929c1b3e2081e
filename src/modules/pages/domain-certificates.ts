import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import type { CertificateChoicePort, CertificateChoices } from '../../core/certificate-choices.js';
import type { CertificateRequests } from '../../core/certificate-requests.js';
import type { Deps } from '../../core/deps.js';
import { describeError } from '../../core/error-text.js';
import { AppError } from '../../core/errors.js';
import type { GatewayHostnames } from '../../core/gateway-hostnames.js';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { pagesDomains } from '../../db/schema/index.js';

export type DomainRow = typeof pagesDomains.$inferSelect;

/** What a domain held before a change that may have ended its use of an ordered certificate. */
export type HeldCertificate = Pick<DomainRow, 'hostname' | 'certificateId' | 'certificateOrdered'>;

/** Why an automatic certificate was not ordered: the API's reason (e.g. CERTIFICATE_NAME_TAKEN), or the error. */
function orderFailure(name: string, error: unknown): string {
  const reason =
    error instanceof AppError ? (error.details as { reason?: string } | undefined)?.reason : undefined;
  return `certificate "${name}" could not be ordered: ${reason ?? describeError(error)}`;
}

/**
 * The certificates of custom domains, across the module boundary: the TLS listener serves the one a
 * verified domain chose (`deps.certificateChoices`, served here), one is ordered for a verified
 * domain without one (`deps.certificateRequests`), and an ordered one is given back when no domain
 * uses it any more, so it is not renewed for nothing. A domain that claims one of the gateway's own
 * names (added before they were reserved) chooses nothing for it.
 */
export class DomainCertificates implements CertificateChoices {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly requests: CertificateRequests;
  private readonly choices: CertificateChoicePort;
  private readonly acmeEmail: string | undefined;
  private readonly gatewayNames: GatewayHostnames;

  constructor(
    deps: Pick<Deps, 'db' | 'audit' | 'config' | 'certificateRequests' | 'certificateChoices'> & {
      gatewayNames: GatewayHostnames;
    },
  ) {
    this.db = deps.db;
    this.gatewayNames = deps.gatewayNames;
    this.audit = deps.audit;
    this.requests = deps.certificateRequests;
    this.choices = deps.certificateChoices;
    this.acmeEmail = deps.config.pages.acmeEmail;
  }

  async chosen(): Promise<ReadonlyMap<string, string>> {
    const [rows, gatewayNames] = await Promise.all([
      this.db
        .select({ hostname: pagesDomains.hostname, certificateId: pagesDomains.certificateId })
        .from(pagesDomains)
        .where(and(eq(pagesDomains.status, 'verified'), isNotNull(pagesDomains.certificateId))),
      this.gatewayNames.names(),
    ]);
    return new Map(
      rows.filter((row) => !gatewayNames.has(row.hostname)).map((row) => [row.hostname, row.certificateId!]),
    );
  }

  /** Tells every gateway process's TLS listener, once `tx` commits, that what a domain serves changed. */
  changed(tx: DbOrTx): Promise<void> {
    return this.choices.announceChange(tx);
  }

  /** Whether a domain just checked should get a certificate ordered (`INFRAGATE_PAGES_ACME_EMAIL` set). */
  wantsOrder(domain: DomainRow): boolean {
    return domain.status === 'verified' && domain.certificateId === null && this.acmeEmail !== undefined;
  }

  /**
   * Orders an http-01 certificate for a verified domain that has none chosen. A failure to order is
   * recorded on the domain (the verification stands); the CA's progress shows on the certificate.
   * Answers the domain after, or undefined when it was deleted meanwhile.
   */
  async order(actor: AuditActor, domain: DomainRow): Promise<DomainRow | undefined> {
    const { projectId, hostname } = domain;
    const name = `pages ${hostname}`;
    const ordered = await this.requests
      .request(actor, { name, hostnames: [hostname], accountEmail: this.acmeEmail! })
      .then(({ id }) => ({ certificateId: id, error: null }))
      .catch((error: unknown) => ({ certificateId: null, error: orderFailure(name, error) }));
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(pagesDomains)
        .set(
          ordered.certificateId
            ? { certificateId: ordered.certificateId, certificateOrdered: true, updatedAt: new Date() }
            : { lastError: ordered.error, updatedAt: new Date() },
        )
        // One chosen meanwhile stays chosen.
        .where(and(eq(pagesDomains.id, domain.id), isNull(pagesDomains.certificateId)))
        .returning();
      if (!row) {
        // Chosen or deleted meanwhile: the order is of no use.
        if (ordered.certificateId)
          await this.release(tx, actor, [
            { hostname, certificateId: ordered.certificateId, certificateOrdered: true },
          ]);
        const [current] = await tx.select().from(pagesDomains).where(eq(pagesDomains.id, domain.id));
        return current;
      }
      await this.audit.record(tx, actor, {
        action: ordered.certificateId
          ? 'pages.domain.certificate_ordered'
          : 'pages.domain.certificate_failed',
        targetType: 'pages_domain',
        targetId: domain.id,
        outcome: ordered.certificateId ? 'success' : 'failure',
        metadata: { projectId, hostname, certificateId: ordered.certificateId, error: ordered.error },
      });
      await this.changed(tx);
      return row;
    });
  }

  /**
   * After domains stopped using their certificates (deleted, or another one chosen) in `tx`: each
   * certificate ordered for one of them is given back. It names that domain's host alone, and host
   * names are unique, so no other domain can have chosen it.
   */
  async release(tx: Tx, actor: AuditActor, held: HeldCertificate[]): Promise<void> {
    for (const { hostname, certificateId, certificateOrdered } of held) {
      if (!certificateOrdered || certificateId === null) continue;
      await this.requests.release(tx, actor, {
        certificateId,
        reason: `no longer used: it was ordered for pages domain ${hostname}`,
      });
    }
  }
}
