import { eq, lte, sql } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { AppError } from '../../core/errors.js';
import type { SignInAttempt, SignInThrottle } from '../../core/sign-in-throttle.js';
import type { DbOrTx } from '../../db/client.js';
import { lockValueForTransaction } from '../../db/locks.js';
import { queryRows } from '../../db/raw.js';
import { signInAttempts } from '../../db/schema/index.js';

export const FAILED_LOGIN_ACTION = 'auth.login.failed';
export const TOO_MANY_FAILED_LOGINS = 'TOO_MANY_FAILED_LOGINS';

/** One account (email) or client address at or over its failed-login limit. */
export interface LoginLock {
  subject: 'account' | 'address';
  value: string;
  failures: number;
  /** The oldest failure in the window: the lock lasts until it leaves the window. */
  since: Date;
}

export interface ThrottleVerdict {
  locked: boolean;
  retryAfterSeconds: number;
  locks: LoginLock[];
}

/** What counts against the limits: the failures recorded, and the attempts being checked now. */
type Counted = 'failures' | 'failures and attempts';

/**
 * Locks an email, or a client address, after too many failed logins within a sliding window. It
 * counts the `auth.login.failed` events of the audit trail (wrong passwords, wrong second-factor
 * codes, refused single sign-on callbacks), so every gateway process sharing the database sees the
 * same count and a restart forgets nothing. Without an email (a callback whose user is not known
 * yet) only the address counts.
 *
 * A step that checks a secret runs through `checkSecret`, which counts its attempt before the check
 * (`sign_in_attempts`): otherwise attempts sent together would all pass the limit before the first
 * of them failed.
 */
export class LoginThrottle implements SignInThrottle {
  constructor(private readonly deps: Pick<Deps, 'db' | 'config' | 'audit' | 'notifications'>) {}

  async check(
    email: string | null,
    clientIp: string,
    db: DbOrTx = this.deps.db,
    counted: Counted = 'failures and attempts',
  ): Promise<ThrottleVerdict> {
    const limits = this.deps.config;
    const window = this.windowStart();
    const attempts =
      counted === 'failures'
        ? sql``
        : sql`union all
          select email, client_ip, started_at from sign_in_attempts
          where started_at > ${window} and (email = ${email} or client_ip = ${clientIp})`;
    const [row] = await queryRows<{
      by_email: number;
      by_address: number;
      oldest_email: Date | string | null;
      oldest_address: Date | string | null;
    }>(
      db,
      sql`select
            count(*) filter (where email = ${email})::int as by_email,
            count(*) filter (where client_ip = ${clientIp})::int as by_address,
            min(at) filter (where email = ${email}) as oldest_email,
            min(at) filter (where client_ip = ${clientIp}) as oldest_address
          from (
            select metadata->>'email' as email, client_ip, occurred_at as at from audit_events
            where action = ${FAILED_LOGIN_ACTION} and occurred_at > ${window}
              and (metadata->>'email' = ${email} or client_ip = ${clientIp})
            ${attempts}
          ) as counted`,
    );
    const lock = (
      subject: LoginLock['subject'],
      value: string,
      failures: number,
      limit: number,
      oldest: Date | string | null,
    ): LoginLock[] =>
      failures >= limit && oldest ? [{ subject, value, failures, since: new Date(oldest) }] : [];
    const locks = [
      ...lock(
        'account',
        email ?? '',
        row?.by_email ?? 0,
        limits.loginMaxFailuresPerEmail,
        row?.oldest_email ?? null,
      ),
      ...lock(
        'address',
        clientIp,
        row?.by_address ?? 0,
        limits.loginMaxFailuresPerAddress,
        row?.oldest_address ?? null,
      ),
    ];
    if (locks.length === 0) return { locked: false, retryAfterSeconds: 0, locks };
    const until = Math.max(...locks.map((held) => held.since.getTime())) + limits.loginWindowSeconds * 1000;
    return { locked: true, retryAfterSeconds: Math.max(1, Math.ceil((until - Date.now()) / 1000)), locks };
  }

  /** When the window of counted failures starts: so long before now. */
  private windowStart() {
    return sql`now() - ${`${this.deps.config.loginWindowSeconds} seconds`}::interval`;
  }

  /**
   * After a failed login is recorded in `tx`: when it made the account or the address reach its limit,
   * queues `auth.login.throttled`, keyed by the lock (who, and its oldest failure), so a lockout is
   * notified once however many failures race into it. Attempts still being checked do not count:
   * they may yet succeed.
   */
  private async reportLocks(tx: DbOrTx, email: string | null, clientIp: string): Promise<void> {
    const { locks } = await this.check(email, clientIp, tx, 'failures');
    for (const lock of locks) {
      const lockedUntil = new Date(lock.since.getTime() + this.deps.config.loginWindowSeconds * 1000);
      await this.deps.notifications.emit(tx, {
        kind: 'auth.login.throttled',
        resource: { type: 'login', id: `${lock.subject}:${lock.value}`, name: lock.value },
        key: `${lock.subject}:${lock.value}@${lock.since.toISOString()}`,
        details: {
          subject: lock.subject,
          failures: lock.failures,
          windowSeconds: this.deps.config.loginWindowSeconds,
          lockedUntil: lockedUntil.toISOString(),
        },
      });
    }
  }

  /**
   * Refuses with 401 TOO_MANY_FAILED_LOGINS, recording `auth.login.throttled`, while the email or
   * address is locked. Throttled attempts do not count as failures, so a lock ends with its window.
   */
  async assertOpen(attempt: SignInAttempt, metadata: Record<string, unknown> = {}): Promise<void> {
    const verdict = await this.check(attempt.email, attempt.client.clientIp);
    if (verdict.locked) await this.refuse(attempt, verdict, metadata);
  }

  /**
   * One check of a secret under the limits. The attempt is counted first, in a transaction holding
   * the locks of its email and address (so racing attempts take turns, on one gateway or several on
   * one database): refused with 401 TOO_MANY_FAILED_LOGINS when failures and attempts in progress
   * reach a limit. Then `verify` runs; when it answers undefined the attempt becomes a failure
   * (`auth.login.failed`), otherwise it stops counting. A `verify` that throws counts as neither:
   * it refused the request before judging the secret. Answers what `verify` answered.
   */
  async checkSecret<T>(
    attempt: SignInAttempt,
    metadata: Record<string, unknown>,
    verify: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const attemptId = await this.reserve(attempt, metadata);
    let failed = false;
    try {
      const verified = await verify();
      failed = verified === undefined;
      if (failed) await this.countFailure(attempt, metadata, attemptId);
      return verified;
    } finally {
      if (!failed) await this.deps.db.delete(signInAttempts).where(eq(signInAttempts.id, attemptId));
    }
  }

  /** The attempt's row in `sign_in_attempts`, made under the limits; refused at a limit. */
  private async reserve(attempt: SignInAttempt, metadata: Record<string, unknown>): Promise<string> {
    const { email, client } = attempt;
    const outcome = await this.deps.db.transaction(async (tx) => {
      // Email first, then address, in every transaction: two attempts never wait on each other in a circle.
      if (email !== null) await lockValueForTransaction(tx, 'signInEmail', email);
      await lockValueForTransaction(tx, 'signInAddress', client.clientIp);
      const verdict = await this.check(email, client.clientIp, tx);
      if (verdict.locked) return { refusal: verdict };
      // Rows of attempts whose process died are of no use once out of the window: dropped here, not in a job.
      await tx.delete(signInAttempts).where(lte(signInAttempts.startedAt, this.windowStart()));
      const [row] = await tx
        .insert(signInAttempts)
        .values({ email, clientIp: client.clientIp })
        .returning({ id: signInAttempts.id });
      return { attemptId: row!.id };
    });
    if (outcome.refusal) return this.refuse(attempt, outcome.refusal, metadata);
    return outcome.attemptId;
  }

  private async refuse(
    attempt: SignInAttempt,
    verdict: ThrottleVerdict,
    metadata: Record<string, unknown>,
  ): Promise<never> {
    await this.record(this.deps.db, attempt, 'auth.login.throttled', metadata);
    throw new AppError('UNAUTHORIZED', {
      reason: TOO_MANY_FAILED_LOGINS,
      explanation: 'too many failed logins for this account or address; try again later',
      retryAfterSeconds: verdict.retryAfterSeconds,
    });
  }

  /**
   * Counts a failed step (`auth.login.failed`) against the email and the address, and in the same
   * transaction reports a lock it completes to the notification outbox.
   */
  recordFailure(attempt: SignInAttempt, metadata: Record<string, unknown> = {}): Promise<void> {
    return this.countFailure(attempt, metadata);
  }

  /** The failure's event, in place of the attempt's row when there is one (one transaction: it never stops counting). */
  private countFailure(
    attempt: SignInAttempt,
    metadata: Record<string, unknown>,
    attemptId?: string,
  ): Promise<void> {
    return this.deps.db.transaction(async (tx) => {
      if (attemptId) await tx.delete(signInAttempts).where(eq(signInAttempts.id, attemptId));
      await this.record(tx, attempt, FAILED_LOGIN_ACTION, metadata);
      await this.reportLocks(tx, attempt.email, attempt.client.clientIp);
    });
  }

  private async record(
    db: DbOrTx,
    { email, userId, client }: SignInAttempt,
    action: typeof FAILED_LOGIN_ACTION | 'auth.login.throttled',
    metadata: Record<string, unknown>,
  ): Promise<void> {
    const actor: AuditActor = {
      userId,
      email: email ?? 'anonymous',
      requestId: client.requestId,
      clientIp: client.clientIp,
    };
    await this.deps.audit.record(db, actor, {
      action,
      targetType: 'user',
      targetId: userId,
      outcome: 'failure',
      metadata: email === null ? metadata : { email, ...metadata },
    });
  }
}
