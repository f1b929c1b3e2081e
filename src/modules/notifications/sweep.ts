import { isNotNull, isNull, type SQLWrapper, sql } from 'drizzle-orm';
import { reportCertificateExpiry } from '../../core/certificate-expiry.js';
import type { Deps } from '../../core/deps.js';
import type { Db, Tx } from '../../db/client.js';
import {
  containerhostHealthChecks,
  type NotificationEventKind,
  notificationRules,
  repohostConnectors,
  siemDestinations,
  sslCertificates,
} from '../../db/schema/index.js';
import type { NotificationOutbox } from './outbox.js';

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
  // A log alert rule watches a condition of its own: it goes with the rule.
  'logging.query.threshold': (db) =>
    db.select({ id: sql`${notificationRules.id}::text` }).from(notificationRules),
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
 * verification of the audit hash chain (`audit.chain.broken`). Each resource is reported in a
 * transaction of its own; the outbox's identities make a repeated sweep queue nothing new.
 */
export class NotificationSweep {
  /** The chain head this process verified last, and when its next run walks the whole chain. */
  private verified: { seq: number; hash: string; fullWalkDue: number } | undefined;

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'config' | 'jobs' | 'log' | 'auditChain'> & {
      outbox: NotificationOutbox;
    },
  ) {}

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
    await this.deps.db.transaction((tx) => this.deps.outbox.remind(tx, now));
  }

  private async forgetDeleted(): Promise<void> {
    const { db, outbox } = this.deps;
    await db.transaction(async (tx) => {
      for (const [kind, live] of Object.entries(LIVE_RESOURCES)) {
        await outbox.forgetOthers(tx, kind as NotificationEventKind, live(db));
      }
    });
  }

  private async certificates(now: Date): Promise<void> {
    const { db, outbox } = this.deps;
    const certificates = await db
      .select({
        id: sslCertificates.id,
        name: sslCertificates.name,
        notAfter: sslCertificates.notAfter,
        subject: sslCertificates.subject,
      })
      .from(sslCertificates)
      // An ACME certificate not issued yet has no expiry to watch.
      .where(isNotNull(sslCertificates.notAfter));
    await this.eachApart('certificate', certificates, (tx, certificate) =>
      reportCertificateExpiry(tx, outbox, { ...certificate, notAfter: certificate.notAfter! }, now),
    );
  }

  private async repohostTokens(now: Date): Promise<void> {
    const { db, outbox } = this.deps;
    const connectors = await db
      .select({
        id: repohostConnectors.id,
        name: repohostConnectors.name,
        baseUrl: repohostConnectors.baseUrl,
        tokenExpiresAt: repohostConnectors.tokenExpiresAt,
      })
      .from(repohostConnectors)
      .where(isNotNull(repohostConnectors.tokenExpiresAt));
    await this.eachApart('repository host', connectors, async (tx, connector) => {
      const deadline = tokenDeadline(connector.tokenExpiresAt!);
      if (!deadline) return;
      await outbox.emit(tx, {
        kind: 'repohost.token.expiring',
        resource: { type: 'repohost_connector', id: connector.id, name: connector.name },
        labels: { connectorId: connector.id },
        details: { baseUrl: connector.baseUrl, tokenExpiresAt: connector.tokenExpiresAt },
        deadline,
        occurredAt: now,
      });
    });
  }

  /**
   * Reports each resource in a transaction of its own, so one that fails (logged) neither rolls back
   * nor holds up the others; the next sweep tries it again.
   */
  private async eachApart<Resource extends { id: string }>(
    what: string,
    resources: Resource[],
    report: (tx: Tx, resource: Resource) => Promise<void>,
  ): Promise<void> {
    for (const resource of resources) {
      try {
        await this.deps.db.transaction((tx) => report(tx, resource));
      } catch (error) {
        this.deps.log.error(
          { err: error, resourceId: resource.id },
          `the notification sweep could not report a ${what}`,
        );
      }
    }
  }

  /**
   * Verifies the audit chain (the audit module's own verification) and reports its state as a
   * condition. The whole chain is walked on this process's first run, at least once every
   * `chainFullWalkSeconds` (0: every run), and after any break; the runs between verify only the events added since the head
   * this process verified last (cost grows with the new events, not with the trail: see
   * docs/SECURITY.md for what a run between full walks can miss). That head is kept through a break
   * and given to the whole walks as a checkpoint, so a rewritten chain stays broken until it is undone.
   */
  async verifyChain(): Promise<void> {
    const now = Date.now();
    const last = this.verified;
    const full = !last || now >= last.fullWalkDue;
    const report = full
      ? await this.deps.auditChain.verify(last)
      : await this.deps.auditChain.verifySince(last);
    if (!report.valid) this.verified = last && { ...last, fullWalkDue: now };
    else if (report.headSeq === null) this.verified = undefined;
    else {
      const fullWalkDue = full ? now + this.deps.config.notify.chainFullWalkSeconds * 1000 : last.fullWalkDue;
      this.verified = { seq: report.headSeq, hash: report.headHash!, fullWalkDue };
    }
    const broken = report.firstBrokenLink;
    await this.deps.db.transaction((tx) =>
      this.deps.outbox.emit(tx, {
        kind: 'audit.chain.broken',
        resource: AUDIT_TRAIL,
        state: report.valid ? 'intact' : 'broken',
        occurredAt: report.verifiedAt,
        details: {
          checkedEvents: report.checkedEvents,
          verified: full ? 'whole chain' : `events after ${last.seq}`,
          ...(broken
            ? { brokenAtSeq: broken.seq, reason: broken.reason, explanation: broken.explanation }
            : {}),
        },
      }),
    );
  }
}
