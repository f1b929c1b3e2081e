import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';

/** NOTIFY channel on which every change of a certificate's material is announced (payload: its id). */
export const CERTIFICATE_CHANNEL = 'infragate_certificates';

/**
 * Announces, when the transaction commits, that a certificate was stored, replaced, renewed or
 * deleted; every gateway process (PostgreSQL), or this one (PGlite), then serves the new material on
 * the next TLS handshake.
 */
export async function announceCertificateChange(tx: DbOrTx, id: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${CERTIFICATE_CHANNEL}, ${id})`);
}
