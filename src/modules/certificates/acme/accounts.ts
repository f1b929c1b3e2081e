import type * as acme from 'acme-client';
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../../core/deps.js';
import type { DbOrTx } from '../../../db/client.js';
import { acmeAccounts } from '../../../db/schema/index.js';
import { acmeClient, newPrivateKeyPem } from './client.js';
import type { AcmeTransport } from './transport.js';

/** Binds each sealed account key to its column. */
const ACCOUNT_KEY_CONTEXT = 'acme_accounts.account_key';

/**
 * ACME accounts, one per directory and contact email, reused by every order that names the same
 * pair. The key is made here and sealed at rest; the CA learns of the account on its first order.
 */
export class AcmeAccounts {
  constructor(private readonly deps: Pick<Deps, 'db' | 'secrets'> & { transport: AcmeTransport }) {}

  /** The account for this directory and email, created (unregistered) when there is none yet. */
  async idFor(tx: DbOrTx, directoryUrl: string, email: string): Promise<string> {
    const where = and(eq(acmeAccounts.directoryUrl, directoryUrl), eq(acmeAccounts.email, email));
    await tx
      .insert(acmeAccounts)
      .values({
        directoryUrl,
        email,
        accountKeySealed: this.deps.secrets.seal(newPrivateKeyPem(), ACCOUNT_KEY_CONTEXT),
      })
      .onConflictDoNothing();
    const [row] = await tx.select({ id: acmeAccounts.id }).from(acmeAccounts).where(where);
    return row!.id;
  }

  /** A client signed with the account's key, registered with the CA first if it never was. */
  async client(accountId: string): Promise<acme.Client> {
    const [account] = await this.deps.db.select().from(acmeAccounts).where(eq(acmeAccounts.id, accountId));
    if (!account) throw new Error(`ACME account ${accountId} is gone`);
    const client = await acmeClient(this.deps.transport, {
      directoryUrl: account.directoryUrl,
      accountKeyPem: this.deps.secrets.open(account.accountKeySealed, ACCOUNT_KEY_CONTEXT),
      accountUrl: account.accountUrl,
    });
    if (!account.accountUrl) {
      await client.createAccount({ termsOfServiceAgreed: true, contact: [`mailto:${account.email}`] });
      await this.deps.db
        .update(acmeAccounts)
        .set({ accountUrl: client.getAccountUrl() })
        .where(eq(acmeAccounts.id, accountId));
    }
    return client;
  }
}
