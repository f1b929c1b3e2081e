import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../../core/deps.js';
import { acmeChallenges } from '../../../db/schema/index.js';
import type { DnsProviderClient } from './dns-provider.js';

/** `_acme-challenge.<domain>`, the name a dns-01 TXT record lives at (a wildcard's base domain). */
export const dnsRecordName = (domain: string) => `_acme-challenge.${domain.replace(/^\*\./, '')}`;

export interface PendingChallenge {
  certificateId: string;
  type: 'http-01' | 'dns-01';
  domain: string;
  token: string;
  keyAuthorization: string;
  challengeUrl: string;
}

/**
 * The challenges of orders in progress, in the database so that whichever gateway process the CA
 * reaches (behind a load balancer) answers HTTP-01, and so that DNS-01 records are known for
 * display (manual mode) and removal.
 */
export class ChallengeStore {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  async save(challenge: PendingChallenge): Promise<void> {
    await this.deps.db
      .insert(acmeChallenges)
      .values({
        ...challenge,
        recordName: challenge.type === 'dns-01' ? dnsRecordName(challenge.domain) : null,
      })
      .onConflictDoNothing();
  }

  /** The key authorization to answer at `/.well-known/acme-challenge/{token}`, if the token is ours. */
  async httpAnswer(token: string): Promise<string | undefined> {
    const [row] = await this.deps.db
      .select({ keyAuthorization: acmeChallenges.keyAuthorization })
      .from(acmeChallenges)
      .where(and(eq(acmeChallenges.token, token), eq(acmeChallenges.type, 'http-01')));
    return row?.keyAuthorization;
  }

  /**
   * Forgets a certificate's challenges once its order ends, withdrawing the TXT records a provider
   * published; a record that cannot be withdrawn is harmless (the CA never reads it again).
   */
  async clear(certificateId: string, provider?: DnsProviderClient): Promise<void> {
    const rows = await this.deps.db
      .delete(acmeChallenges)
      .where(eq(acmeChallenges.certificateId, certificateId))
      .returning({ recordName: acmeChallenges.recordName, value: acmeChallenges.keyAuthorization });
    if (!provider) return;
    for (const row of rows) {
      if (row.recordName) await provider.removeTxt(row.recordName, row.value).catch(() => {});
    }
  }
}
