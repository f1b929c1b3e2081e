import crypto from 'node:crypto';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import type { CertificateRequests } from '../../core/certificate-requests.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { describeError } from '../../core/error-text.js';
import { AppError, notFound, unprocessable } from '../../core/errors.js';
import { certificateNameCovers, hostOfHeader, isBelow } from '../../core/hostnames.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { pagesDomains, sslCertificates } from '../../db/schema/index.js';
import {
  type CheckResult,
  type DomainOwnershipChecks,
  HTTP_PROOF_PATH,
  TXT_PREFIX,
} from './domain-checks.js';
import { requireProject } from './project-rows.js';
import type { Domain, DomainChanges, DomainCheck, NewDomain } from './schemas.js';
import type { DomainInvalidation } from './site-hosts.js';
import type { SiteUrls } from './site-urls.js';

type DomainRow = typeof pagesDomains.$inferSelect;

/** Why an automatic certificate was not ordered: the API's reason (e.g. CERTIFICATE_NAME_TAKEN), or the error. */
function orderFailure(name: string, error: unknown): string {
  const reason =
    error instanceof AppError ? (error.details as { reason?: string } | undefined)?.reason : undefined;
  return `certificate "${name}" could not be ordered: ${reason ?? describeError(error)}`;
}

/**
 * Custom domains of pages projects: a host name per record (unique across projects), proven by a
 * DNS TXT record or an HTTP token, then served by Host. Each records the stored certificate that
 * serves it over HTTPS: one chosen, or one ordered once it is verified (with `pages.acmeEmail` set).
 */
export class DomainService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly baseDomain: string | undefined;
  private readonly checks: DomainOwnershipChecks;
  private readonly hosts: DomainInvalidation;
  private readonly urls: SiteUrls;
  private readonly certificates: CertificateRequests;
  private readonly acmeEmail: string | undefined;

  constructor(
    deps: Pick<Deps, 'db' | 'audit' | 'config' | 'certificateRequests'> & {
      checks: DomainOwnershipChecks;
      hosts: DomainInvalidation;
      urls: SiteUrls;
    },
  ) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.baseDomain = deps.config.pages.baseDomain;
    this.checks = deps.checks;
    this.hosts = deps.hosts;
    this.urls = deps.urls;
    this.certificates = deps.certificateRequests;
    this.acmeEmail = deps.config.pages.acmeEmail;
  }

  async list(projectId: string, request: PageRequest) {
    await requireProject(this.db, projectId);
    const where = eq(pagesDomains.projectId, projectId);
    return fetchPage(
      request,
      async ({ limit, offset }) => {
        const rows = await this.db
          .select()
          .from(pagesDomains)
          .where(where)
          .orderBy(asc(pagesDomains.hostname))
          .limit(limit)
          .offset(offset);
        return rows.map((row) => this.present(row));
      },
      this.db.select({ value: count() }).from(pagesDomains).where(where),
    );
  }

  async get(projectId: string, domainId: string, db: DbOrTx = this.db): Promise<Domain> {
    return this.present(await this.row(projectId, domainId, db));
  }

  /**
   * Adds a host name to a project (pending until verified). `gatewayHost` is the name the caller
   * reached the gateway by: the gateway's own name can never become a site.
   */
  async create(
    actor: AuditActor,
    projectId: string,
    input: NewDomain,
    gatewayHost?: string,
  ): Promise<Domain> {
    const { hostname } = input;
    this.assertAvailable(hostname, hostOfHeader(gatewayHost));
    const certificateId = input.certificateId ?? null;
    return this.db.transaction(async (tx) => {
      await requireProject(tx, projectId);
      await this.assertCertificateCovers(tx, certificateId, hostname);
      const [row] = (await conflictOnDuplicate(
        tx
          .insert(pagesDomains)
          .values({
            projectId,
            hostname,
            certificateId,
            verificationToken: crypto.randomBytes(24).toString('base64url'),
          })
          .returning(),
        'DOMAIN_TAKEN',
        { hostname },
      )) as [DomainRow];
      await this.audit.record(tx, actor, {
        action: 'pages.domain.created',
        targetType: 'pages_domain',
        targetId: row.id,
        metadata: { projectId, hostname, certificateId },
      });
      return this.present(row);
    });
  }

  /** Chooses the certificate that serves the domain (or none). */
  async update(
    actor: AuditActor,
    projectId: string,
    domainId: string,
    changes: DomainChanges,
  ): Promise<Domain> {
    return this.db.transaction(async (tx) => {
      const before = await this.row(projectId, domainId, tx);
      await this.assertCertificateCovers(tx, changes.certificateId, before.hostname);
      const [row] = await tx
        .update(pagesDomains)
        .set({ certificateId: changes.certificateId, updatedAt: new Date() })
        .where(eq(pagesDomains.id, domainId))
        .returning();
      await this.audit.record(tx, actor, {
        action: 'pages.domain.updated',
        targetType: 'pages_domain',
        targetId: domainId,
        metadata: { projectId, hostname: before.hostname, certificateId: changes.certificateId },
      });
      return this.present(row!);
    });
  }

  async remove(actor: AuditActor, projectId: string, domainId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await this.row(projectId, domainId, tx);
      await tx.delete(pagesDomains).where(eq(pagesDomains.id, domainId));
      await this.audit.record(tx, actor, {
        action: 'pages.domain.deleted',
        targetType: 'pages_domain',
        targetId: domainId,
        metadata: { projectId, hostname: row.hostname, status: row.status },
      });
    });
    this.hosts.forgetDomains();
  }

  /**
   * Checks ownership now: the TXT record, then the HTTP token (or only the one asked for). The
   * outcome is recorded either way; a verified domain that fails a later check stops being served.
   */
  async verify(actor: AuditActor, projectId: string, domainId: string, check: DomainCheck): Promise<Domain> {
    const domain = await this.row(projectId, domainId);
    const proof = this.proofOf(domain);
    const failures: string[] = [];
    const attempt = async (label: string, run: () => Promise<CheckResult>) => {
      const result = await run();
      if (!result.ok) failures.push(`${label}: ${result.reason}`);
      return result.ok;
    };
    const verified =
      (check.method !== 'http' &&
        (await attempt('DNS', () => this.checks.txt(domain.hostname, proof.dnsValue)))) ||
      (check.method !== 'dns' &&
        (await attempt('HTTP', () =>
          this.checks.http(domain.hostname, domain.verificationToken, proof.httpBody),
        )));
    const now = new Date();
    const checked = await this.db.transaction(async (tx) => {
      await this.row(projectId, domainId, tx);
      const [row] = await tx
        .update(pagesDomains)
        .set({
          status: verified ? 'verified' : 'failed',
          lastError: verified ? null : failures.join('; '),
          lastCheckedAt: now,
          verifiedAt: verified ? (domain.verifiedAt ?? now) : null,
          updatedAt: now,
        })
        .where(eq(pagesDomains.id, domainId))
        .returning();
      await this.audit.record(tx, actor, {
        action: verified ? 'pages.domain.verified' : 'pages.domain.verification_failed',
        targetType: 'pages_domain',
        targetId: domainId,
        outcome: verified ? 'success' : 'failure',
        metadata: {
          projectId,
          hostname: domain.hostname,
          method: check.method ?? 'any',
          previousStatus: domain.status,
        },
      });
      return row!;
    });
    this.hosts.forgetDomains();
    const ordering = checked.status === 'verified' && checked.certificateId === null && this.acmeEmail;
    return this.present(ordering ? await this.orderCertificate(actor, checked, ordering) : checked);
  }

  /**
   * Orders an http-01 certificate for a verified domain that has none chosen. A failure to order is
   * recorded on the domain (the verification stands); the CA's progress shows on the certificate.
   */
  private async orderCertificate(actor: AuditActor, domain: DomainRow, accountEmail: string) {
    const { projectId, hostname } = domain;
    const name = `pages ${hostname}`;
    const ordered = await this.certificates
      .request(actor, { name, hostnames: [hostname], accountEmail })
      .then(({ id }) => ({ certificateId: id, error: null }))
      .catch((error: unknown) => ({ certificateId: null, error: orderFailure(name, error) }));
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(pagesDomains)
        .set(
          ordered.certificateId
            ? { certificateId: ordered.certificateId, updatedAt: new Date() }
            : { lastError: ordered.error, updatedAt: new Date() },
        )
        // One chosen meanwhile stays chosen.
        .where(and(eq(pagesDomains.id, domain.id), isNull(pagesDomains.certificateId)))
        .returning();
      if (!row) return this.row(projectId, domain.id, tx);
      await this.audit.record(tx, actor, {
        action: ordered.certificateId
          ? 'pages.domain.certificate_ordered'
          : 'pages.domain.certificate_failed',
        targetType: 'pages_domain',
        targetId: domain.id,
        outcome: ordered.certificateId ? 'success' : 'failure',
        metadata: { projectId, hostname, certificateId: ordered.certificateId, error: ordered.error },
      });
      return row;
    });
  }

  /** The HTTP proof body, answered only to a request that names the domain itself as its Host. */
  async httpProof(token: string, hostHeader: string | undefined): Promise<string> {
    const [row] = await this.db.select().from(pagesDomains).where(eq(pagesDomains.verificationToken, token));
    if (!row || row.hostname !== hostOfHeader(hostHeader))
      throw notFound({ reason: 'DOMAIN_TOKEN_NOT_FOUND' });
    return this.proofOf(row).httpBody;
  }

  private async row(projectId: string, domainId: string, db: DbOrTx = this.db): Promise<DomainRow> {
    const [row] = await db
      .select()
      .from(pagesDomains)
      .where(and(eq(pagesDomains.id, domainId), eq(pagesDomains.projectId, projectId)));
    if (row) return row;
    await requireProject(db, projectId);
    throw notFound({ projectId, domainId });
  }

  private assertAvailable(hostname: string, gatewayHost: string | undefined): void {
    const base = this.baseDomain;
    if (base && (hostname === base || isBelow(hostname, base)))
      throw unprocessable(
        'HOSTNAME_RESERVED',
        `names at and under the pages base domain ${base} are given to sites by slug`,
        {
          hostname,
        },
      );
    if (hostname === gatewayHost)
      throw unprocessable(
        'HOSTNAME_RESERVED',
        'the gateway itself answers at this name; it cannot become a site',
        {
          hostname,
        },
      );
  }

  private async assertCertificateCovers(
    db: DbOrTx,
    certificateId: string | null,
    hostname: string,
  ): Promise<void> {
    if (certificateId === null) return;
    const [certificate] = await db
      .select({ sans: sslCertificates.sans })
      .from(sslCertificates)
      .where(eq(sslCertificates.id, certificateId));
    if (!certificate)
      throw unprocessable('CERTIFICATE_NOT_FOUND', 'no stored certificate has this id', { certificateId });
    // An ACME certificate not issued yet names nothing so far.
    const names = certificate.sans ?? [];
    if (!names.some((name) => certificateNameCovers(name, hostname)))
      throw unprocessable('CERTIFICATE_MISMATCH', `the certificate does not name ${hostname}`, {
        certificateId,
        names,
      });
  }

  private proofOf(row: Pick<DomainRow, 'id' | 'hostname' | 'verificationToken'>) {
    return {
      dnsName: `${TXT_PREFIX}${row.hostname}`,
      dnsValue: row.verificationToken,
      httpUrl: `http://${row.hostname}${HTTP_PROOF_PATH}${row.verificationToken}`,
      // Not the token alone: a server that echoes the path back cannot prove a domain by accident.
      httpBody: `${row.verificationToken}.${row.id}`,
    };
  }

  private present(row: DomainRow): Domain {
    const { verificationToken: _token, ...fields } = row;
    return { ...fields, url: this.urls.domain(row.hostname), verification: this.proofOf(row) };
  }
}
