import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AcmeConfig } from '../../../config.js';
import { systemActor } from '../../../core/actor.js';
import type { AuditRecorder } from '../../../core/audit-recorder.js';
import { reportCertificateExpiry } from '../../../core/certificate-expiry.js';
import type { Deps } from '../../../core/deps.js';
import type { Notifications } from '../../../core/notifications.js';
import type { SecretBox } from '../../../core/secret-box.js';
import type { Db } from '../../../db/client.js';
import { acmeOrders, sslCertificates } from '../../../db/schema/index.js';
import { auditMetadata, KEY_CONTEXT } from '../certificates.js';
import { announceCertificateChange } from '../change-feed.js';
import type { ParsedMaterial } from '../material.js';
import type { ChallengeStore } from './challenges.js';
import type { DnsProviderClient } from './dns-provider.js';
import type { DnsProviderService } from './dns-providers.js';
import { type AcmeOrderer, type AcmeOrderRow, errorText, type StepOutcome } from './orderer.js';

export const ACME_JOB = 'certificates.acme';

const DAY_MS = 86_400_000;
/** How long a worker owns an order it claimed; past it (a crashed process) another takes it over. */
const CLAIM_MS = 5 * 60_000;
/** Orders advanced per run; the rest wait for the next run. */
const BATCH = 20;

/**
 * When to renew: `renewBeforeDays` before expiry, or at 2/3 of the lifetime when that comes first
 * (short-lived certificates, e.g. 6-day ones, or Pebble's).
 */
export function renewalTime(notBefore: Date, notAfter: Date, renewBeforeDays: number): Date {
  const lifetime = notAfter.getTime() - notBefore.getTime();
  return new Date(notAfter.getTime() - Math.min(renewBeforeDays * DAY_MS, lifetime / 3));
}

/** Retry delay after the n-th failure in a row: doubling from the base, capped. */
export function retryDelayMs(failures: number, config: AcmeConfig): number {
  const seconds = Math.min(config.retryBaseSeconds * 2 ** Math.max(0, failures - 1), config.retryMaxSeconds);
  return seconds * 1000;
}

/** An order that ended (issued or failed): forgotten, the next one due at `dueAt`, the claim released. */
const orderEnded = (failures: number, dueAt: Date) => ({
  orderUrl: null,
  privateKeySealed: null,
  confirmedAt: null,
  failures,
  dueAt,
  claimedUntil: null,
  updatedAt: new Date(),
});

/**
 * The background side of ACME: first orders, renewals and retries. It runs under the job lease (one
 * gateway process at a time) and additionally claims each order for a while, so a run that outlasts
 * the lease never shares an order with the process that takes over.
 */
export class AcmeWorker {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly secrets: SecretBox;
  private readonly config: AcmeConfig;
  private readonly log: FastifyBaseLogger;
  private readonly notifications: Notifications;

  private readonly orderer: AcmeOrderer;
  private readonly challenges: ChallengeStore;
  private readonly providers: DnsProviderService;

  constructor(
    deps: Pick<Deps, 'db' | 'audit' | 'secrets' | 'config' | 'log' | 'notifications'> & {
      orderer: AcmeOrderer;
      challenges: ChallengeStore;
      providers: DnsProviderService;
    },
  ) {
    this.orderer = deps.orderer;
    this.challenges = deps.challenges;
    this.providers = deps.providers;
    this.db = deps.db;
    this.audit = deps.audit;
    this.secrets = deps.secrets;
    this.config = deps.config.acme;
    this.log = deps.log;
    this.notifications = deps.notifications;
  }

  async run(): Promise<void> {
    const due = await this.db
      .select({ certificateId: acmeOrders.certificateId })
      .from(acmeOrders)
      .where(
        and(
          lte(acmeOrders.dueAt, sql`now()`),
          or(isNull(acmeOrders.claimedUntil), lt(acmeOrders.claimedUntil, sql`now()`)),
        ),
      )
      .orderBy(acmeOrders.dueAt)
      .limit(BATCH);
    for (const { certificateId } of due) {
      const order = await this.claim(certificateId);
      if (order) await this.work(order);
    }
  }

  private async claim(certificateId: string): Promise<AcmeOrderRow | undefined> {
    const [order] = await this.db
      .update(acmeOrders)
      .set({ claimedUntil: new Date(Date.now() + CLAIM_MS) })
      .where(
        and(
          eq(acmeOrders.certificateId, certificateId),
          lte(acmeOrders.dueAt, sql`now()`),
          or(isNull(acmeOrders.claimedUntil), lt(acmeOrders.claimedUntil, sql`now()`)),
        ),
      )
      .returning();
    return order;
  }

  private async work(order: AcmeOrderRow): Promise<void> {
    if (!order.orderUrl) await this.markStarted(order.certificateId);
    let provider: DnsProviderClient | undefined;
    let outcome: StepOutcome;
    try {
      if (order.dnsProviderId) provider = await this.providers.client(order.dnsProviderId);
      outcome = await this.orderer.advance(order, provider);
    } catch (error) {
      outcome = { kind: 'failed', reason: errorText(error) };
    }
    if (outcome.kind === 'issued') {
      await this.challenges.clear(order.certificateId, provider);
      await this.issued(order, outcome.material);
    } else if (outcome.kind === 'failed') {
      await this.challenges.clear(order.certificateId, provider);
      await this.failed(order, outcome.reason);
    } else {
      // Waiting for the CA: due again at the next run. Waiting for the operator: due when confirmed.
      await this.db
        .update(acmeOrders)
        .set({ dueAt: outcome.kind === 'waiting' ? new Date() : null, claimedUntil: null })
        .where(eq(acmeOrders.certificateId, order.certificateId));
    }
  }

  /** A new order begins: a first one is `pending`, one for a certificate that exists is `renewing`. */
  private async markStarted(certificateId: string): Promise<void> {
    await this.db
      .update(sslCertificates)
      .set({
        status: sql`case when ${sslCertificates.certificatePem} is null then 'pending' else 'renewing' end`,
        updatedAt: new Date(),
      })
      .where(eq(sslCertificates.id, certificateId));
  }

  private async issued(order: AcmeOrderRow, material: ParsedMaterial): Promise<void> {
    const { privateKeyPkcs8, ...stored } = material;
    const renewAt = renewalTime(material.notBefore, material.notAfter, this.config.renewBeforeDays);
    await this.db.transaction(async (tx) => {
      const [previous] = await tx
        .select({ name: sslCertificates.name, fingerprintSha256: sslCertificates.fingerprintSha256 })
        .from(sslCertificates)
        .where(eq(sslCertificates.id, order.certificateId));
      if (!previous) return;
      await tx
        .update(sslCertificates)
        .set({
          ...stored,
          privateKeySealed: this.secrets.seal(privateKeyPkcs8, KEY_CONTEXT),
          status: 'valid',
          lastError: null,
          nextRenewalAt: renewAt,
          updatedAt: new Date(),
        })
        .where(eq(sslCertificates.id, order.certificateId));
      await tx
        .update(acmeOrders)
        .set(orderEnded(0, renewAt))
        .where(eq(acmeOrders.certificateId, order.certificateId));
      const renewed = previous.fingerprintSha256 !== null;
      await this.audit.record(tx, systemActor(), {
        action: renewed ? 'certificates.certificate.renewed' : 'certificates.certificate.issued',
        targetType: 'ssl_certificate',
        targetId: order.certificateId,
        metadata: {
          ...auditMetadata(previous.name, stored),
          ...(renewed ? { previousFingerprintSha256: previous.fingerprintSha256 } : {}),
        },
      });
      await reportCertificateExpiry(tx, this.notifications, {
        id: order.certificateId,
        name: previous.name,
        ...stored,
      });
      await announceCertificateChange(tx, order.certificateId);
    });
  }

  /**
   * A failed order is retried after a backoff with a new order. A certificate that exists stays
   * served (`renewing`) until it expires; one that never was issued, or has expired, is `failed`.
   */
  private async failed(order: AcmeOrderRow, reason: string): Promise<void> {
    const failures = order.failures + 1;
    const retryAt = new Date(Date.now() + retryDelayMs(failures, this.config));
    this.log.warn({ certificateId: order.certificateId, failures, reason }, 'ACME order failed');
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(sslCertificates)
        .set({
          status: sql`case when ${sslCertificates.notAfter} > now() then 'renewing' else 'failed' end`,
          lastError: reason,
          nextRenewalAt: retryAt,
          updatedAt: new Date(),
        })
        .where(eq(sslCertificates.id, order.certificateId))
        .returning({ name: sslCertificates.name });
      if (!row) return;
      await tx
        .update(acmeOrders)
        .set(orderEnded(failures, retryAt))
        .where(eq(acmeOrders.certificateId, order.certificateId));
      await this.audit.record(tx, systemActor(), {
        action: 'certificates.certificate.order_failed',
        targetType: 'ssl_certificate',
        targetId: order.certificateId,
        metadata: { name: row.name, reason, failures, retryAt: retryAt.toISOString() },
      });
    });
  }
}
