import { eq } from 'drizzle-orm';
import type { AuditActor } from '../../../core/actor.js';
import type { AuditRecorder } from '../../../core/audit-recorder.js';
import type { BackgroundJobs } from '../../../core/background-jobs.js';
import { conflictOnDuplicate, isForeignKeyViolation } from '../../../core/db-errors.js';
import type { Deps } from '../../../core/deps.js';
import { conflict, invalidField, notFound } from '../../../core/errors.js';
import { trimmedName } from '../../../core/names.js';
import type { Db } from '../../../db/client.js';
import { acmeOrders, sslCertificates } from '../../../db/schema/index.js';
import type { CertificateService } from '../certificates.js';
import type { AcmeOrderRequest, Certificate } from '../schemas.js';
import type { AcmeAccounts } from './accounts.js';
import { ACME_JOB } from './worker.js';

/**
 * Orders certificates from an ACME CA: checks the request, stores the certificate as `pending` with
 * what to order, and leaves the ordering to the background worker (which survives restarts).
 */
export class AcmeOrderService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly jobs: BackgroundJobs;
  private readonly defaultDirectoryUrl: string;

  private readonly certificates: CertificateService;
  private readonly accounts: AcmeAccounts;

  constructor(
    deps: Pick<Deps, 'db' | 'audit' | 'jobs' | 'config'> & {
      certificates: CertificateService;
      accounts: AcmeAccounts;
    },
  ) {
    this.certificates = deps.certificates;
    this.accounts = deps.accounts;
    this.db = deps.db;
    this.audit = deps.audit;
    this.jobs = deps.jobs;
    this.defaultDirectoryUrl = deps.config.acme.directoryUrl;
  }

  async order(actor: AuditActor, input: AcmeOrderRequest): Promise<Certificate> {
    const name = trimmedName(input.name);
    const domains = [...new Set(input.domains.map((domain) => domain.toLowerCase()))];
    const directoryUrl = input.directoryUrl ?? this.defaultDirectoryUrl;
    if (!directoryUrl.startsWith('https://')) throw invalidField(['directoryUrl'], 'must be an https:// URL');
    if (input.challenge === 'http-01') {
      const wildcard = input.domains.findIndex((domain) => domain.startsWith('*.'));
      if (wildcard >= 0)
        throw invalidField(['domains', wildcard], 'is a wildcard, which only the dns-01 challenge can prove');
      if (input.dnsProviderId !== undefined)
        throw invalidField(['dnsProviderId'], 'applies to the dns-01 challenge only');
    }
    const accountEmail = input.accountEmail.toLowerCase();
    try {
      const id = await this.db.transaction(async (tx) => {
        const [created] = await conflictOnDuplicate(
          tx
            .insert(sslCertificates)
            .values({ name, source: 'acme', status: 'pending' })
            .returning({ id: sslCertificates.id }),
          'CERTIFICATE_NAME_TAKEN',
          { name },
        );
        const certificateId = created!.id;
        await tx.insert(acmeOrders).values({
          certificateId,
          accountId: await this.accounts.idFor(tx, directoryUrl, accountEmail),
          domains,
          challenge: input.challenge,
          dnsProviderId: input.dnsProviderId ?? null,
          dueAt: new Date(),
        });
        await this.audit.record(tx, actor, {
          action: 'certificates.acme.ordered',
          targetType: 'ssl_certificate',
          targetId: certificateId,
          metadata: {
            name,
            domains,
            challenge: input.challenge,
            directoryUrl,
            accountEmail,
            dnsProviderId: input.dnsProviderId ?? null,
          },
        });
        return certificateId;
      });
      return this.kicked(await this.certificates.get(id));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw notFound({ dnsProviderId: input.dnsProviderId });
      throw error;
    }
  }

  /** Manual dns-01: the operator says the TXT records are in place; the CA is asked to validate. */
  async confirm(actor: AuditActor, id: string): Promise<Certificate> {
    await this.acmeOrder(id);
    const certificate = await this.certificates.get(id);
    const acme = certificate.acme;
    if (!acme?.awaitingConfirmation) {
      throw conflict('NOT_AWAITING_CONFIRMATION', {
        certificateId: id,
        explanation: 'only a manual dns-01 order that shows its TXT records waits for a confirmation',
      });
    }
    await this.db.transaction(async (tx) => {
      await tx
        .update(acmeOrders)
        .set({ confirmedAt: new Date(), dueAt: new Date(), updatedAt: new Date() })
        .where(eq(acmeOrders.certificateId, id));
      await this.audit.record(tx, actor, {
        action: 'certificates.acme.confirmed',
        targetType: 'ssl_certificate',
        targetId: id,
        metadata: { name: certificate.name, records: acme.dnsRecords.length },
      });
    });
    return this.kicked(await this.certificates.get(id));
  }

  /** Renews now (or retries a failed order now) instead of waiting for `nextRenewalAt`. */
  async renew(actor: AuditActor, id: string): Promise<Certificate> {
    const order = await this.acmeOrder(id);
    if (order.orderUrl !== null) {
      throw conflict('ORDER_IN_PROGRESS', {
        certificateId: id,
        explanation: 'an order for this certificate is running; its progress shows in status and lastError',
      });
    }
    await this.db.transaction(async (tx) => {
      await tx
        .update(acmeOrders)
        .set({ dueAt: new Date(), updatedAt: new Date() })
        .where(eq(acmeOrders.certificateId, id));
      await this.audit.record(tx, actor, {
        action: 'certificates.acme.renewal_requested',
        targetType: 'ssl_certificate',
        targetId: id,
        metadata: { domains: order.domains },
      });
    });
    return this.kicked(await this.certificates.get(id));
  }

  private async acmeOrder(id: string) {
    const certificate = await this.certificates.get(id);
    const [order] = await this.db.select().from(acmeOrders).where(eq(acmeOrders.certificateId, id));
    if (!order) {
      throw conflict('CERTIFICATE_NOT_ACME', {
        certificateId: id,
        explanation: `${certificate.name} was uploaded; only ACME certificates are ordered and renewed by the gateway`,
      });
    }
    return order;
  }

  /**
   * Starts the worker here now rather than at its next tick (it does nothing where another process
   * holds the lease), after the answer was read, so the answer shows the state the caller created.
   */
  private kicked(answer: Certificate): Certificate {
    void this.jobs.runNow(ACME_JOB);
    return answer;
  }
}
