import { and, asc, count, eq, lte, type SQL } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import { reportCertificateExpiry } from '../../core/certificate-expiry.js';
import type { CertificateRelease } from '../../core/certificate-requests.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { conflict, notFound } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import type { Notifications } from '../../core/notifications.js';
import { fetchPage } from '../../core/pagination.js';
import type { SecretBox } from '../../core/secret-box.js';
import { containsText } from '../../core/text-filters.js';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { sslCertificates } from '../../db/schema/index.js';
import { toCertificates, viewColumns } from './certificate-view.js';
import { announceCertificateChange } from './change-feed.js';
import { type ParsedMaterial, parseMaterial } from './material.js';
import type {
  Certificate,
  CertificateDownload,
  CertificateListQuery,
  CertificateMaterial,
  CertificateUpload,
} from './schemas.js';

/** Where sealed private keys live; binds each ciphertext to its column. */
export const KEY_CONTEXT = 'ssl_certificates.private_key';
const DAY_MS = 86_400_000;

/** SSL certificates with their private keys, which are sealed at rest and never leave the gateway. */
export class CertificateService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly secrets: SecretBox;
  private readonly notifications: Notifications;
  /** Name or id of the certificate the TLS listener serves by default (`INFRAGATE_TLS_DEFAULT_CERTIFICATE`). */
  private readonly defaultCertificate: string | undefined;

  constructor(deps: Pick<Deps, 'db' | 'audit' | 'secrets' | 'notifications' | 'config'>) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.secrets = deps.secrets;
    this.notifications = deps.notifications;
    this.defaultCertificate = deps.config.https.defaultCertificate;
  }

  /** The certificates the actor may see (all with an area-wide scope). */
  async list(actor: Actor, filter: CertificateListQuery) {
    const conditions: SQL[] = [];
    const visible = visibleResources(sslCertificates.id, actor, 'certificates:view');
    if (visible) conditions.push(visible);
    if (filter.expiringWithinDays !== undefined) {
      const horizon = new Date(Date.now() + filter.expiringWithinDays * DAY_MS);
      conditions.push(lte(sslCertificates.notAfter, horizon));
    }
    if (filter.q) conditions.push(containsText(sslCertificates.name, filter.q));
    const where = and(...conditions);
    const order =
      filter.sort === 'notAfter'
        ? [asc(sslCertificates.notAfter), asc(sslCertificates.name)]
        : [asc(sslCertificates.name)];
    const page = await fetchPage(
      filter,
      ({ limit, offset }) =>
        this.db
          .select(viewColumns)
          .from(sslCertificates)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
      this.db.select({ value: count() }).from(sslCertificates).where(where),
    );
    return { ...page, data: await toCertificates(this.db, page.data) };
  }

  async get(id: string, db: DbOrTx = this.db): Promise<Certificate> {
    const [row] = await db.select(viewColumns).from(sslCertificates).where(eq(sslCertificates.id, id));
    if (!row) throw notFound({ certificateId: id });
    const [certificate] = await toCertificates(db, [row]);
    return certificate!;
  }

  async download(id: string): Promise<CertificateDownload> {
    const [row] = await this.db
      .select({
        id: sslCertificates.id,
        name: sslCertificates.name,
        certificatePem: sslCertificates.certificatePem,
        chainPem: sslCertificates.chainPem,
      })
      .from(sslCertificates)
      .where(eq(sslCertificates.id, id));
    if (!row) throw notFound({ certificateId: id });
    if (row.certificatePem === null) throw notIssued(id);
    return { ...row, certificatePem: row.certificatePem, fullChainPem: row.certificatePem + row.chainPem };
  }

  async upload(actor: AuditActor, input: CertificateUpload): Promise<Certificate> {
    const name = trimmedName(input.name);
    const { privateKeyPkcs8, ...material } = parseMaterial(input);
    const privateKeySealed = this.secrets.seal(privateKeyPkcs8, KEY_CONTEXT);
    return this.db.transaction(async (tx) => {
      const [{ id }] = (await conflictOnDuplicate(
        tx
          .insert(sslCertificates)
          .values({ name, ...material, privateKeySealed })
          .returning({ id: sslCertificates.id }),
        'CERTIFICATE_NAME_TAKEN',
        { name },
      )) as [{ id: string }];
      await this.audit.record(tx, actor, {
        action: 'certificates.certificate.uploaded',
        targetType: 'ssl_certificate',
        targetId: id,
        metadata: auditMetadata(name, material),
      });
      await reportCertificateExpiry(tx, this.notifications, { id, name, ...material });
      await announceCertificateChange(tx, id);
      return this.get(id, tx);
    });
  }

  /** Renewal: a new certificate, key and chain under the same name and id. */
  async replace(actor: AuditActor, id: string, input: CertificateMaterial): Promise<Certificate> {
    const { privateKeyPkcs8, ...material } = parseMaterial(input);
    const privateKeySealed = this.secrets.seal(privateKeyPkcs8, KEY_CONTEXT);
    return this.db.transaction(async (tx) => {
      const previous = await this.get(id, tx);
      if (previous.source === 'acme') {
        throw conflict('CERTIFICATE_MANAGED_BY_ACME', {
          certificateId: id,
          explanation: 'ACME certificates are renewed by the gateway; delete this one to upload your own',
        });
      }
      await tx
        .update(sslCertificates)
        .set({ ...material, privateKeySealed, updatedAt: new Date() })
        .where(eq(sslCertificates.id, id));
      await this.audit.record(tx, actor, {
        action: 'certificates.certificate.replaced',
        targetType: 'ssl_certificate',
        targetId: id,
        metadata: {
          ...auditMetadata(previous.name, material),
          previousFingerprintSha256: previous.fingerprintSha256,
          previousNotAfter: previous.notAfter?.toISOString() ?? null,
        },
      });
      await reportCertificateExpiry(tx, this.notifications, { id, name: previous.name, ...material });
      await announceCertificateChange(tx, id);
      return this.get(id, tx);
    });
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await this.deleteIn(tx, actor, id, {}))) throw notFound({ certificateId: id });
    });
  }

  /**
   * An ACME certificate ordered for another module's names that no longer need it: deleted in the
   * caller's transaction (so it is not renewed), unless it is the configured default certificate.
   */
  async release(tx: Tx, actor: AuditActor, { certificateId, reason }: CertificateRelease): Promise<void> {
    const [row] = await tx
      .select({ name: sslCertificates.name, source: sslCertificates.source })
      .from(sslCertificates)
      .where(eq(sslCertificates.id, certificateId));
    if (row?.source !== 'acme') return;
    if (this.defaultCertificate === certificateId || this.defaultCertificate === row.name) return;
    await this.deleteIn(tx, actor, certificateId, { reason });
  }

  /** Deletes one certificate, audited and announced; answers whether it existed. */
  private async deleteIn(tx: Tx, actor: AuditActor, id: string, extra: { reason?: string }) {
    const [row] = await tx
      .delete(sslCertificates)
      .where(eq(sslCertificates.id, id))
      .returning({ name: sslCertificates.name, fingerprintSha256: sslCertificates.fingerprintSha256 });
    if (!row) return false;
    await this.audit.record(tx, actor, {
      action: 'certificates.certificate.deleted',
      targetType: 'ssl_certificate',
      targetId: id,
      metadata: { name: row.name, fingerprintSha256: row.fingerprintSha256, ...extra },
    });
    await announceCertificateChange(tx, id);
    return true;
  }

  /** The decrypted private key (PKCS#8 PEM), for in-process consumers that serve TLS; never for HTTP. */
  async privateKeyPem(id: string): Promise<string> {
    const [row] = await this.db
      .select({ sealed: sslCertificates.privateKeySealed })
      .from(sslCertificates)
      .where(eq(sslCertificates.id, id));
    if (!row) throw notFound({ certificateId: id });
    if (row.sealed === null) throw notIssued(id);
    return this.secrets.open(row.sealed, KEY_CONTEXT);
  }
}

const notIssued = (certificateId: string) =>
  conflict('CERTIFICATE_NOT_ISSUED', {
    certificateId,
    explanation: 'the ACME order has not issued this certificate yet; see its status and lastError',
  });

export function auditMetadata(name: string, material: Omit<ParsedMaterial, 'privateKeyPkcs8'>) {
  return {
    name,
    subject: material.subject,
    issuer: material.issuer,
    serialNumber: material.serialNumber,
    fingerprintSha256: material.fingerprintSha256,
    notAfter: material.notAfter.toISOString(),
    keyType: material.keyType,
    chainLength: material.chainLength,
  };
}
