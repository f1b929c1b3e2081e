import { isNotNull, isNull, type SQLWrapper, sql } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import type { Db } from '../../db/client.js';
import {
  containerhostHealthChecks,
  type NotificationEventKind,
  repohostConnectors,
  siemDestinations,
  sslCertificates,
} from '../../db/schema/index.js';

export const SWEEP_JOB = 'notifications.sweep';
export const CHAIN_JOB = 'notifications.audit-chain';

/** The one audit trail, as a resource of `audit.chain.broken`. */
const AUDIT_TRAIL = { type: 'audit_chain', id: 'audit_events', name: 'audit trail' };

/**
 * The resources that still exist, per condition kind: the state kept for a deleted health check,
 * destination or certificate is dropped, so it neither reminds nor shows as an open alert.
 */
const LIVE_RESOURCES: Partial<Record<NotificationEventKind, (db: Db) => SQLWrapper>> = {
  'containerhost.health_check.changed': (db) =>
    db.select({ id: sql`${containerhostHealthChecks.id}::text` }).from(containerhostHealthChecks),
  'certificates.expired': (db) => db.select({ id: sql`${sslCertificates.id}::text` }).from(sslCertificates),
  'siem.destination.circuit_opened': (db) =>
    db
      .select({ id: sql`${siemDestinations.id}::text` })
      .from(siemDestinations)
      .where(isNull(siemDestinations.deletedAt)),
};

/**
 * When a repository-host token expires. The host reports a date (`YYYY-MM-DD`, GitLab: the token stops
 * working at 00:00 UTC that day); a full timestamp is taken as it is.
 */
export function tokenDeadline(expiresAt: string): Date | undefined {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(expiresAt) ? `${expiresAt}T00:00:00Z` : expiresAt);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Time-based events evaluated from the database, in one gateway process at a time (job leases):
 * certificate expiry (`certificates.expiring`, `certificates.expired`), repository-host token expiry
 * (`repohost.token.expiring`), reminders of open conditions and forgetting the conditions of deleted
 * resources; and, as a job of its own, the
 * verification of the audit hash chain (`audit.chain.broken`). Each resource is one emit in a
 * transaction; the outbox's identities make a repeated sweep queue nothing new.
 */
export class NotificationSweep {
  constructor(private readonly deps: Pick<Deps, 'db' | 'config' | 'jobs' | 'notifications' | 'auditChain'>) {}

  register(): void {
    const { notify } = this.deps.config;
    this.deps.jobs.register({
      name: SWEEP_JOB,
      intervalMs: notify.sweepSeconds * 1000,
      run: () => this.run(),
    });
    this.deps.jobs.register({
      name: CHAIN_JOB,
      intervalMs: notify.chainVerifySeconds * 1000,
      run: () => this.verifyChain(),
    });
  }

  async run(now = new Date()): Promise<void> {
    await this.certificates(now);
    await this.repohostTokens(now);
    await this.forgetDeleted();
    await this.deps.db.transaction((tx) => this.deps.notifications.remind(tx, now));
  }

  private async forgetDeleted(): Promise<void> {
    const { db, notifications } = this.deps;
    await db.transaction(async (tx) => {
      for (const [kind, live] of Object.entries(LIVE_RESOURCES)) {
        await notifications.forgetOthers(tx, kind as NotificationEventKind, live(db));
      }
    });
  }

  private async certificates(now: Date): Promise<void> {
    const { db, notifications } = this.deps;
    const certificates = await db
      .select({
        id: sslCertificates.id,
        name: sslCertificates.name,
        notAfter: sslCertificates.notAfter,
        subject: sslCertificates.subject,
      })
      .from(sslCertificates);
    await db.transaction(async (tx) => {
      for (const certificate of certificates) {
        // An ACME certificate not issued yet has no expiry to watch.
        const { notAfter } = certificate;
        if (!notAfter) continue;
        const resource = { type: 'ssl_certificate', id: certificate.id, name: certificate.name };
        const labels = { certificateId: certificate.id };
        const details = { subject: certificate.subject, notAfter: notAfter.toISOString() };
        const expired = notAfter <= now;
        if (!expired) {
          await notifications.emit(tx, {
            kind: 'certificates.expiring',
            resource,
            labels,
            details,
            deadline: notAfter,
            occurredAt: now,
          });
        }
        await notifications.emit(tx, {
          kind: 'certificates.expired',
          resource,
          labels,
          details,
          state: expired ? 'expired' : 'valid',
          occurredAt: now,
        });
      }
    });
  }

  private async repohostTokens(now: Date): Promise<void> {
    const { db, notifications } = this.deps;
    const connectors = await db
      .select({
        id: repohostConnectors.id,
        name: repohostConnectors.name,
        baseUrl: repohostConnectors.baseUrl,
        tokenExpiresAt: repohostConnectors.tokenExpiresAt,
      })
      .from(repohostConnectors)
      .where(isNotNull(repohostConnectors.tokenExpiresAt));
    await db.transaction(async (tx) => {
      for (const connector of connectors) {
        const deadline = tokenDeadline(connector.tokenExpiresAt!);
        if (!deadline) continue;
        await notifications.emit(tx, {
          kind: 'repohost.token.expiring',
          resource: { type: 'repohost_connector', id: connector.id, name: connector.name },
          labels: { connectorId: connector.id },
          details: { baseUrl: connector.baseUrl, tokenExpiresAt: connector.tokenExpiresAt },
          deadline,
          occurredAt: now,
        });
      }
    });
  }

  /** Walks the audit chain (the audit module's own verification) and reports its state as a condition. */
  async verifyChain(): Promise<void> {
    const report = await this.deps.auditChain.verify();
    const broken = report.firstBrokenLink;
    await this.deps.db.transaction((tx) =>
      this.deps.notifications.emit(tx, {
        kind: 'audit.chain.broken',
        resource: AUDIT_TRAIL,
        state: report.valid ? 'intact' : 'broken',
        occurredAt: report.verifiedAt,
        details: {
          checkedEvents: report.checkedEvents,
          ...(broken
            ? { brokenAtSeq: broken.seq, reason: broken.reason, explanation: broken.explanation }
            : {}),
        },
      }),
    );
  }
}
