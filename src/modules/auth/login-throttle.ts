import { sql } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import { queryRows } from '../../db/raw.js';

export const FAILED_LOGIN_ACTION = 'auth.login.failed';

export interface ThrottleVerdict {
  locked: boolean;
  retryAfterSeconds: number;
}

/**
 * Locks an email, or a client address, after too many failed logins within a sliding window. It
 * counts the `auth.login.failed` events of the audit trail, so every gateway process sharing the
 * database sees the same count and a restart forgets nothing.
 */
export class LoginThrottle {
  constructor(private readonly deps: Pick<Deps, 'db' | 'config'>) {}

  async check(email: string, clientIp: string): Promise<ThrottleVerdict> {
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
}
