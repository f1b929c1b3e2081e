import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';

/** NOTIFY channel on which a change of the certificates chosen for host names is announced. */
export const CERTIFICATE_CHOICE_CHANNEL = 'infragate_certificate_choices';

/** Certificates that modules serving host names chose for them (a pages custom domain's `certificateId`). */
export interface CertificateChoices {
  /** Host name (lowercase) → the id of the stored certificate chosen for it. */
  chosen(): Promise<ReadonlyMap<string, string>>;
}

/**
 * The TLS listener asks which certificate a host name was given through this port in `Deps`: pages
 * serves it, the certificates module asks (modules are encapsulated plugins and do not import each
 * other). A change is announced inside the transaction that makes it, so every gateway process
 * reads the choices again once it commits.
 */
export class CertificateChoicePort implements CertificateChoices {
  private source: CertificateChoices | undefined;

  serve(source: CertificateChoices): void {
    this.source = source;
  }

  chosen(): Promise<ReadonlyMap<string, string>> {
    return this.source ? this.source.chosen() : Promise.resolve(new Map());
  }

  /** Announces, when `tx` commits, that a host name's chosen certificate may have changed. */
  async announceChange(tx: DbOrTx): Promise<void> {
    await tx.execute(sql`select pg_notify(${CERTIFICATE_CHOICE_CHANNEL}, '')`);
  }
}
