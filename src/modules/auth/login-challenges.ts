import crypto from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { hashTokenSecret } from '../../core/auth/token-secrets.js';
import type { Deps } from '../../core/deps.js';
import { AppError } from '../../core/errors.js';
import type { DbOrTx } from '../../db/client.js';
import { type LoginChallengeKind, loginChallenges } from '../../db/schema/index.js';

/** How long the second step of a login may take after the password was accepted. */
const CHALLENGE_TTL_SECONDS = 300;

export interface IssuedChallenge {
  challengeToken: string;
  expiresAt: Date;
}

export interface OpenChallenge {
  id: string;
  userId: string;
  kind: LoginChallengeKind;
}

/** 401 for a challenge token that is unknown, used or expired: the login starts again. */
const challengeInvalid = () =>
  new AppError('UNAUTHORIZED', {
    reason: 'CHALLENGE_INVALID',
    explanation: 'this sign-in has expired or was completed already; sign in with your password again',
  });

/**
 * The second step of a login: a token (`igm_…`, 256 random bits, only its hash stored) that stands
 * for "the password was right" for a few minutes, until the step is completed once.
 */
export class LoginChallenges {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  async issue(tx: DbOrTx, userId: string, kind: LoginChallengeKind): Promise<IssuedChallenge> {
    // Old challenges of anyone are of no use to anyone: drop them here rather than in a job.
    await tx.delete(loginChallenges).where(lt(loginChallenges.expiresAt, sql`now()`));
    const challengeToken = `igm_${crypto.randomBytes(32).toString('base64url')}`;
    const expiresAt = new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000);
    await tx
      .insert(loginChallenges)
      .values({ userId, kind, tokenHash: hashTokenSecret(challengeToken), expiresAt });
    return { challengeToken, expiresAt };
  }

  /** The open challenge the token stands for; 401 CHALLENGE_INVALID otherwise. */
  async find(challengeToken: string): Promise<OpenChallenge> {
    const [row] = await this.deps.db
      .select({ id: loginChallenges.id, userId: loginChallenges.userId, kind: loginChallenges.kind })
      .from(loginChallenges)
      .where(
        and(
          eq(loginChallenges.tokenHash, hashTokenSecret(challengeToken)),
          isNull(loginChallenges.usedAt),
          gt(loginChallenges.expiresAt, sql`now()`),
        ),
      );
    if (!row) throw challengeInvalid();
    return row;
  }

  /** Uses the challenge up inside the transaction that starts the session; a second use is 401. */
  async consume(tx: DbOrTx, challenge: OpenChallenge): Promise<void> {
    const [used] = await tx
      .update(loginChallenges)
      .set({ usedAt: sql`now()` })
      .where(and(eq(loginChallenges.id, challenge.id), isNull(loginChallenges.usedAt)))
      .returning({ id: loginChallenges.id });
    if (!used) throw challengeInvalid();
  }
}
