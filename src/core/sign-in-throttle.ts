import type { ClientInfo } from './auth/client-info.js';
import { ServedPort } from './served-port.js';

/** Who a sign-in step is about: the email tried (null when not known yet) and the user, if any. */
export interface SignInAttempt {
  email: string | null;
  userId: string | null;
  client: ClientInfo;
}

/**
 * The failed-login throttle every way in checks and feeds: the auth module's `LoginThrottle` serves it,
 * and single sign-on (identity-providers) counts its refused callbacks through it.
 */
export interface SignInThrottle {
  /** Refuses with 401 TOO_MANY_FAILED_LOGINS while the email or the client address is locked. */
  assertOpen(attempt: SignInAttempt, metadata?: Record<string, unknown>): Promise<void>;
  /** Counts a failed step against the email and the address. */
  recordFailure(attempt: SignInAttempt, metadata?: Record<string, unknown>): Promise<void>;
}

/** The port in `Deps` (`deps.signInThrottle`), served by the auth module. */
export class SignInThrottlePort extends ServedPort<SignInThrottle> implements SignInThrottle {
  constructor() {
    super('auth');
  }

  async assertOpen(attempt: SignInAttempt, metadata?: Record<string, unknown>): Promise<void> {
    return (await this.served()).assertOpen(attempt, metadata);
  }

  async recordFailure(attempt: SignInAttempt, metadata?: Record<string, unknown>): Promise<void> {
    return (await this.served()).recordFailure(attempt, metadata);
  }
}
