import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { acmeAccounts, acmeChallenges, acmeOrders, sslCertificates } from '../../db/schema/index.js';
import type { AcmeSettings, Certificate } from './schemas.js';

const DAY_MS = 86_400_000;

/** The columns a certificate record is made of (never the key). */
export const viewColumns = {
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
  source: sslCertificates.source,
  status: sslCertificates.status,
  lastError: sslCertificates.lastError,
  nextRenewalAt: sslCertificates.nextRenewalAt,
  createdAt: sslCertificates.createdAt,
  updatedAt: sslCertificates.updatedAt,
};

export type CertificateRow = Pick<typeof sslCertificates.$inferSelect, keyof typeof viewColumns>;

/** The ACME settings of the given certificates, with the TXT records manual dns-01 orders wait for. */
async function acmeSettings(db: DbOrTx, ids: string[]): Promise<Map<string, AcmeSettings>> {
  if (ids.length === 0) return new Map();
  const [orders, records] = await Promise.all([
    db
      .select({
        certificateId: acmeOrders.certificateId,
        domains: acmeOrders.domains,
        challenge: acmeOrders.challenge,
        dnsProviderId: acmeOrders.dnsProviderId,
        orderUrl: acmeOrders.orderUrl,
        confirmedAt: acmeOrders.confirmedAt,
        accountEmail: acmeAccounts.email,
        directoryUrl: acmeAccounts.directoryUrl,
      })
      .from(acmeOrders)
      .innerJoin(acmeAccounts, eq(acmeAccounts.id, acmeOrders.accountId))
      .where(inArray(acmeOrders.certificateId, ids)),
    db
      .select({
        certificateId: acmeChallenges.certificateId,
        name: acmeChallenges.recordName,
        value: acmeChallenges.keyAuthorization,
      })
      .from(acmeChallenges)
      .innerJoin(acmeOrders, eq(acmeOrders.certificateId, acmeChallenges.certificateId))
      .where(
        and(
          inArray(acmeChallenges.certificateId, ids),
          eq(acmeChallenges.type, 'dns-01'),
          isNull(acmeOrders.dnsProviderId),
        ),
      )
      .orderBy(acmeChallenges.recordName, acmeChallenges.keyAuthorization),
  ]);
  return new Map(
    orders.map((order) => {
      const dnsRecords = records
        .filter((record) => record.certificateId === order.certificateId)
        .map((record) => ({ name: record.name ?? '', type: 'TXT' as const, value: record.value }));
      const manual = order.challenge === 'dns-01' && order.dnsProviderId === null;
      return [
        order.certificateId,
        {
          domains: order.domains,
          challenge: order.challenge,
          accountEmail: order.accountEmail,
          directoryUrl: order.directoryUrl,
          dnsProviderId: order.dnsProviderId,
          dnsRecords,
          awaitingConfirmation:
            manual && order.orderUrl !== null && order.confirmedAt === null && dnsRecords.length > 0,
        },
      ];
    }),
  );
}

/** Rows as records: days to expiry, and the ACME settings of ACME certificates (one query for all). */
export async function toCertificates(
  db: DbOrTx,
  rows: CertificateRow[],
  now = Date.now(),
): Promise<Certificate[]> {
  const acme = await acmeSettings(
    db,
    rows.filter((row) => row.source === 'acme').map((row) => row.id),
  );
  return rows.map((row) => {
    const remaining = row.notAfter === null ? null : row.notAfter.getTime() - now;
    return {
      ...row,
      expiresInDays: remaining === null ? null : Math.floor(remaining / DAY_MS),
      expired: remaining === null ? null : remaining < 0,
      acme: acme.get(row.id) ?? null,
    };
  });
}
