import type { X509Certificate } from 'node:crypto';
import { and, asc, count, eq, lte, type SQL } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { notFound, unprocessable } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import type { SecretBox } from '../../core/secret-box.js';
import { containsText } from '../../core/text-filters.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { sslCertificates } from '../../db/schema/index.js';
import {
  checkChainLinks,
  describeKey,
  distinguishedName,
  keyMatches,
  readChain,
  readLeafCertificate,
  readPrivateKey,
  subjectAltNames,
} from './pem.js';
import type {
  Certificate,
  CertificateDownload,
  CertificateListQuery,
  CertificateMaterial,
  CertificateUpload,
} from './schemas.js';

/** Where sealed private keys live; binds each ciphertext to its column. */
const KEY_CONTEXT = 'ssl_certificates.private_key';
const DAY_MS = 86_400_000;

/** Everything stored for a certificate except its id, name and timestamps. */
type ParsedMaterial = Omit<
  typeof sslCertificates.$inferInsert,
  'id' | 'name' | 'createdAt' | 'updatedAt' | 'privateKeySealed'
> & { privateKeyPkcs8: string };

const viewColumns = {
  id: sslCertificates.id,
  name: sslCertificates.name,
  subject: sslCertificates.subject,
  issuer: sslCertificates.issuer,
  serialNumber: sslCertificates.serialNumber,
  sans: sslCertificates.sans,
  notBefore: sslCertificates.notBefore,
  notAfter: sslCertificates.notAfter,
  fingerprintSha256: sslCertificates.fingerprintSha256,
  keyType: sslCertificates.keyType,
  keyBits: sslCertificates.keyBits,
  curve: sslCertificates.curve,
  chainLength: sslCertificates.chainLength,
  createdAt: sslCertificates.createdAt,
  updatedAt: sslCertificates.updatedAt,
};

type Row = Pick<typeof sslCertificates.$inferSelect, keyof typeof viewColumns>;

function withExpiry(row: Row, now = Date.now()): Certificate {
  const remaining = row.notAfter.getTime() - now;
  return { ...row, expiresInDays: Math.floor(remaining / DAY_MS), expired: remaining < 0 };
}

const validity = (certificate: X509Certificate) => ({
  notBefore: new Date(certificate.validFrom),
  notAfter: new Date(certificate.validTo),
});

/**
 * Parses and checks what an operator uploads, in this order: every PEM is readable (400 naming the
 * field), the key belongs to the certificate, the chain links up from the leaf, and the certificates
 * are within their validity (422 each, with a reason). Nothing here touches the database.
 */
function parseMaterial(input: CertificateMaterial, now = new Date()): ParsedMaterial {
  const leaf = readLeafCertificate(input.certificatePem);
  const chain = readChain(input.chainPem);
  const key = readPrivateKey(input.privateKeyPem, input.privateKeyPassphrase);

  if (!keyMatches(leaf, key)) {
    throw unprocessable(
      'KEY_MISMATCH',
      'the private key does not belong to the certificate: its public key differs from the one the certificate carries',
    );
  }
  checkChainLinks(leaf, chain);

  const { notBefore, notAfter } = validity(leaf);
  if (notAfter < now && !input.allowExpired) {
    throw unprocessable(
      'CERTIFICATE_EXPIRED',
      `the certificate expired on ${notAfter.toISOString()}; send allowExpired: true to store it anyway`,
      { notAfter: notAfter.toISOString() },
    );
  }
  if (notBefore > now && !input.allowNotYetValid) {
    throw unprocessable(
      'CERTIFICATE_NOT_YET_VALID',
      `the certificate is valid only from ${notBefore.toISOString()}; send allowNotYetValid: true to store it anyway`,
      { notBefore: notBefore.toISOString() },
    );
  }
  chain.forEach((certificate, index) => {
    const expiry = validity(certificate).notAfter;
    if (expiry < now && !input.allowExpired) {
      throw unprocessable(
        'CHAIN_CERTIFICATE_EXPIRED',
        `chain certificate ${index + 1} (subject ${distinguishedName(certificate.subject)}) expired on ` +
          `${expiry.toISOString()}; send allowExpired: true to store it anyway`,
        { position: index + 1, notAfter: expiry.toISOString() },
      );
    }
  });

  return {
    certificatePem: leaf.toString(),
    chainPem: chain.map((certificate) => certificate.toString()).join(''),
    privateKeyPkcs8: key.export({ type: 'pkcs8', format: 'pem' }) as string,
    subject: distinguishedName(leaf.subject),
    issuer: distinguishedName(leaf.issuer),
    serialNumber: leaf.serialNumber,
    sans: subjectAltNames(leaf),
    notBefore,
    notAfter,
    fingerprintSha256: leaf.fingerprint256,
    ...describeKey(key),
    chainLength: chain.length,
  };
}

/** SSL certificates with their private keys, which are sealed at rest and never leave the gateway. */
export class CertificateService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly secrets: SecretBox;

  constructor(deps: Pick<Deps, 'db' | 'audit' | 'secrets'>) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.secrets = deps.secrets;
  }

  async list(filter: CertificateListQuery) {
    const conditions: SQL[] = [];
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
    const now = Date.now();
    return fetchPage(
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
      (row) => withExpiry(row, now),
    );
  }

  async get(id: string, db: DbOrTx = this.db): Promise<Certificate> {
    const [row] = await db.select(viewColumns).from(sslCertificates).where(eq(sslCertificates.id, id));
    if (!row) throw notFound({ certificateId: id });
    return withExpiry(row);
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
    return { ...row, fullChainPem: row.certificatePem + row.chainPem };
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
      return this.get(id, tx);
    });
  }

  /** Renewal: a new certificate, key and chain under the same name and id. */
  async replace(actor: AuditActor, id: string, input: CertificateMaterial): Promise<Certificate> {
    const { privateKeyPkcs8, ...material } = parseMaterial(input);
    const privateKeySealed = this.secrets.seal(privateKeyPkcs8, KEY_CONTEXT);
    return this.db.transaction(async (tx) => {
      const previous = await this.get(id, tx);
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
          previousNotAfter: previous.notAfter.toISOString(),
        },
      });
      return this.get(id, tx);
    });
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(sslCertificates)
        .where(eq(sslCertificates.id, id))
        .returning({ name: sslCertificates.name, fingerprintSha256: sslCertificates.fingerprintSha256 });
      if (!row) throw notFound({ certificateId: id });
      await this.audit.record(tx, actor, {
        action: 'certificates.certificate.deleted',
        targetType: 'ssl_certificate',
        targetId: id,
        metadata: { name: row.name, fingerprintSha256: row.fingerprintSha256 },
      });
    });
  }

  /** The decrypted private key (PKCS#8 PEM), for in-process consumers that serve TLS; never for HTTP. */
  async privateKeyPem(id: string): Promise<string> {
    const [row] = await this.db
      .select({ sealed: sslCertificates.privateKeySealed })
      .from(sslCertificates)
      .where(eq(sslCertificates.id, id));
    if (!row) throw notFound({ certificateId: id });
    return this.secrets.open(row.sealed, KEY_CONTEXT);
  }
}

function auditMetadata(name: string, material: Omit<ParsedMaterial, 'privateKeyPkcs8'>) {
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
