import { sql } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { AppError } from '../../core/errors.js';
import type { SignInAttempt, SignInThrottle } from '../../core/sign-in-throttle.js';
import type { DbOrTx } from '../../db/client.js';
import { queryRows } from '../../db/raw.js';

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

/**
 * Locks an email, or a client address, after too many failed logins within a sliding window. It
 * counts the `auth.login.failed` events of the audit trail (wrong passwords, wrong second-factor
 * codes, refused single sign-on callbacks), so every gateway process sharing the database sees the
 * same count and a restart forgets nothing. Without an email (a callback whose user is not known
 * yet) only the address counts.
 */
export class LoginThrottle implements SignInThrottle {
  constructor(private readonly deps: Pick<Deps, 'db' | 'config' | 'audit' | 'notifications'>) {}

  async check(email: string | null, clientIp: string, db: DbOrTx = this.deps.db): Promise<ThrottleVerdict> {
    const limits = this.deps.config;
    const window = `${limits.loginWindowSeconds} seconds`;
    const [row] = await queryRows<{
      by_email: number;
      by_address: number;
      oldest_email: Date | string | null;
      oldest_address: Date | string | null;
    }>(
      db,
      sql`select
            count(*) filter (where metadata->>'email' = ${email})::int as by_email,
            count(*) filter (where client_ip = ${clientIp})::int as by_address,
            min(occurred_at) filter (where metadata->>'email' = ${email}) as oldest_email,
            min(occurred_at) filter (where client_ip = ${clientIp}) as oldest_address
          from audit_events
          where action = ${FAILED_LOGIN_ACTION} and occurred_at > now() - ${window}::interval
            and (metadata->>'email' = ${email} or client_ip = ${clientIp})`,
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

  /**
   * After a failed login is recorded in `tx`: when it made the account or the address reach its limit,
   * queues `auth.login.throttled`, keyed by the lock (who, and its oldest failure), so a lockout is
   * notified once however many failures race into it.
   */
  private async reportLocks(tx: DbOrTx, email: string | null, clientIp: string): Promise<void> {
    const { locks } = await this.check(email, clientIp, tx);
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
    if (!verdict.locked) return;
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
    return this.deps.db.transaction(async (tx) => {
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
