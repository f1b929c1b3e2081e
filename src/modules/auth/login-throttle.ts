import { sql } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { ClientInfo } from '../../core/auth/client-info.js';
import type { Deps } from '../../core/deps.js';
import { AppError } from '../../core/errors.js';
import { queryRows } from '../../db/raw.js';

export const FAILED_LOGIN_ACTION = 'auth.login.failed';
export const TOO_MANY_FAILED_LOGINS = 'TOO_MANY_FAILED_LOGINS';

export interface ThrottleVerdict {
  locked: boolean;
  retryAfterSeconds: number;
}

/** Who a sign-in step is about: the email tried (null when not known yet) and the user, if any. */
export interface SignInAttempt {
  email: string | null;
  userId: string | null;
  client: ClientInfo;
}

/**
 * Locks an email, or a client address, after too many failed logins within a sliding window. It
 * counts the `auth.login.failed` events of the audit trail (wrong passwords, wrong second-factor
 * codes, refused single sign-on callbacks), so every gateway process sharing the database sees the
 * same count and a restart forgets nothing. Without an email (a callback whose user is not known
 * yet) only the address counts.
 */
export class LoginThrottle {
  constructor(private readonly deps: Pick<Deps, 'db' | 'config' | 'audit'>) {}

  async check(email: string | null, clientIp: string): Promise<ThrottleVerdict> {
    const limits = this.deps.config;
    const window = `${limits.loginWindowSeconds} seconds`;
    const [row] = await queryRows<{ by_email: number; by_address: number; oldest: Date | string | null }>(
      this.deps.db,
      sql`select
            count(*) filter (where metadata->>'email' = ${email})::int as by_email,
            count(*) filter (where client_ip = ${clientIp})::int as by_address,
            min(occurred_at) as oldest
          from audit_events
          where action = ${FAILED_LOGIN_ACTION} and occurred_at > now() - ${window}::interval
            and (metadata->>'email' = ${email} or client_ip = ${clientIp})`,
    );
    const locked =
      (row?.by_email ?? 0) >= limits.loginMaxFailuresPerEmail ||
      (row?.by_address ?? 0) >= limits.loginMaxFailuresPerAddress;
    const oldest = row?.oldest ? new Date(row.oldest).getTime() : Date.now();
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil((oldest + limits.loginWindowSeconds * 1000 - Date.now()) / 1000),
    );
    return { locked, retryAfterSeconds: locked ? retryAfterSeconds : 0 };
  }

  /**
   * Refuses with 401 TOO_MANY_FAILED_LOGINS, recording `auth.login.throttled`, while the email or
   * address is locked. Throttled attempts do not count as failures, so a lock ends with its window.
   */
  async assertOpen(attempt: SignInAttempt, metadata: Record<string, unknown> = {}): Promise<void> {
    const verdict = await this.check(attempt.email, attempt.client.clientIp);
    if (!verdict.locked) return;
    await this.record(attempt, 'auth.login.throttled', metadata);
    throw new AppError('UNAUTHORIZED', {
      reason: TOO_MANY_FAILED_LOGINS,
      explanation: 'too many failed logins for this account or address; try again later',
      retryAfterSeconds: verdict.retryAfterSeconds,
    });
  }

  /** Counts a failed step (`auth.login.failed`) against the email and the address. */
  recordFailure(attempt: SignInAttempt, metadata: Record<string, unknown> = {}): Promise<void> {
    return this.record(attempt, FAILED_LOGIN_ACTION, metadata);
  }

  private async record(
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
    await this.deps.audit.recordAlone(this.deps.db, actor, {
      action,
      targetType: 'user',
      targetId: userId,
      outcome: 'failure',
      metadata: email === null ? metadata : { email, ...metadata },
    });
  }
}
