import crypto from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { notFound, unprocessable } from '../../core/errors.js';
import { type GatewayHostnames, hostnameReserved } from '../../core/gateway-hostnames.js';
import { certificateNameCovers, hostOfHeader, isBelow } from '../../core/hostnames.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import { actorHolds } from '../../core/trust-boundary.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { pagesDomains, sslCertificates } from '../../db/schema/index.js';
import type { DomainCertificates, DomainRow } from './domain-certificates.js';
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

/**
 * Custom domains of pages projects: a host name per record (unique across projects), proven by a
 * DNS TXT record or an HTTP token, then served by Host. Each records the stored certificate that
 * serves it over HTTPS: one chosen, or one ordered once it is verified (with `pages.acmeEmail` set),
 * which goes when the domain stops using it.
 */
export class DomainService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly baseDomain: string | undefined;
  private readonly checks: DomainOwnershipChecks;
  private readonly hosts: DomainInvalidation;
  private readonly urls: SiteUrls;
  private readonly certificates: DomainCertificates;
  private readonly gatewayNames: GatewayHostnames;

  constructor(
    deps: Pick<Deps, 'db' | 'audit' | 'config'> & {
      checks: DomainOwnershipChecks;
      hosts: DomainInvalidation;
      urls: SiteUrls;
      certificates: DomainCertificates;
      gatewayNames: GatewayHostnames;
    },
  ) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.baseDomain = deps.config.pages.baseDomain;
    this.checks = deps.checks;
    this.hosts = deps.hosts;
    this.urls = deps.urls;
    this.certificates = deps.certificates;
    this.gatewayNames = deps.gatewayNames;
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
   * Adds a host name to a project (pending until verified). `gatewayHost` is the `Host` the caller
   * reached the gateway by: none of the gateway's own names can ever become a site.
   */
  async create(
    actor: AuditActor,
    projectId: string,
    input: NewDomain,
    gatewayHost?: string,
  ): Promise<Domain> {
    const { hostname } = input;
    const reserved = await this.reservation(hostname, gatewayHost);
    if (reserved) throw hostnameReserved(hostname, reserved);
    const certificateId = input.certificateId ?? null;
    return this.db.transaction(async (tx) => {
      await requireProject(tx, projectId);
      await this.assertCertificateUsable(tx, actor, certificateId, hostname);
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

  /** Chooses the certificate that serves the domain (or none); one ordered for it before is given back. */
  async update(
    actor: AuditActor,
    projectId: string,
    domainId: string,
    changes: DomainChanges,
  ): Promise<Domain> {
    return this.db.transaction(async (tx) => {
      const before = await this.row(projectId, domainId, tx);
      await this.assertCertificateUsable(
        tx,
        actor,
        changes.certificateId,
        before.hostname,
        before.certificateId,
      );
      // Choosing the certificate it has already keeps it as it was; any other choice is not an order.
      const certificateOrdered = changes.certificateId === before.certificateId && before.certificateOrdered;
      const [row] = await tx
        .update(pagesDomains)
        .set({ certificateId: changes.certificateId, certificateOrdered, updatedAt: new Date() })
        .where(eq(pagesDomains.id, domainId))
        .returning();
      await this.audit.record(tx, actor, {
        action: 'pages.domain.updated',
        targetType: 'pages_domain',
        targetId: domainId,
        metadata: { projectId, hostname: before.hostname, certificateId: changes.certificateId },
      });
      if (!certificateOrdered) await this.certificates.release(tx, actor, [before]);
      await this.certificates.changed(tx);
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
      await this.certificates.release(tx, actor, [row]);
      await this.certificates.changed(tx);
    });
    this.hosts.forgetDomains();
  }

  /**
   * Checks ownership now: the TXT record, then the HTTP token (or only the one asked for). The
   * outcome is recorded either way; a verified domain that fails a later check stops being served.
   * A name reserved since it was added (one of the gateway's own, `gatewayHost` included) fails
   * without asking anyone.
   */
  async verify(
    actor: AuditActor,
    projectId: string,
    domainId: string,
    check: DomainCheck,
    gatewayHost?: string,
  ): Promise<Domain> {
    const domain = await this.row(projectId, domainId);
    const proof = this.proofOf(domain);
    const reserved = await this.reservation(domain.hostname, gatewayHost);
    const failures = reserved ? [`HOSTNAME_RESERVED: ${reserved}`] : [];
    const attempt = async (label: string, run: () => Promise<CheckResult>) => {
      const result = await run();
      if (!result.ok) failures.push(`${label}: ${result.reason}`);
      return result.ok;
    };
    const verified =
      !reserved &&
      ((check.method !== 'http' &&
        (await attempt('DNS', () => this.checks.txt(domain.hostname, proof.dnsValue)))) ||
        (check.method !== 'dns' &&
          (await attempt('HTTP', () =>
            this.checks.http(domain.hostname, domain.verificationToken, proof.httpBody),
          ))));
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
      await this.certificates.changed(tx);
      return row!;
    });
    this.hosts.forgetDomains();
    if (!this.certificates.wantsOrder(checked)) return this.present(checked);
    const after = await this.certificates.order(actor, checked);
    if (!after) throw notFound({ projectId, domainId });
    return this.present(after);
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

  /** Why a host name can never be a custom domain, or undefined when it may be one. */
  private async reservation(hostname: string, gatewayHost: string | undefined): Promise<string | undefined> {
    const base = this.baseDomain;
    if (base && (hostname === base || isBelow(hostname, base)))
      return `names at and under the pages base domain ${base} are given to sites by slug`;
    const own = await this.gatewayNames.refusal(hostname, gatewayHost);
    return own && `${own}; it cannot become a site`;
  }

  /**
   * A certificate a domain may be served with: one the caller may view (`certificates:view`, on the
   * whole area or on that certificate) that names the host. One the caller may not view is answered
   * as one that does not exist, so neither its existence nor its names leak; the one the domain has
   * already (`bound`, perhaps ordered for it) may be kept.
   */
  private async assertCertificateUsable(
    db: DbOrTx,
    actor: AuditActor,
    certificateId: string | null,
    hostname: string,
    bound: string | null = null,
  ): Promise<void> {
    if (certificateId === null) return;
    const viewable = certificateId === bound || actorHolds(actor, 'certificates:view', certificateId);
    const [certificate] = viewable
      ? await db
          .select({ sans: sslCertificates.sans })
          .from(sslCertificates)
          .where(eq(sslCertificates.id, certificateId))
      : [];
    if (!certificate)
      throw unprocessable('CERTIFICATE_NOT_FOUND', 'no stored certificate you may view has this id', {
        certificateId,
      });
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
