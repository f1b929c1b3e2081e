import type { DbOrTx } from '../db/client.js';
import { ServedPort } from './served-port.js';

/**
 * A user's second factor as the users area needs it: an administrator resets a user's TOTP (the
 * authenticator and its recovery codes) inside the transaction that audits the reset.
 */
export interface SecondFactors {
  /** Removes the user's TOTP enrolment and recovery codes; false when there was none. */
  remove(tx: DbOrTx, userId: string): Promise<boolean>;
}

/** The port in `Deps` (`deps.secondFactors`), served by the auth module, asked by the users module. */
export class SecondFactorPort extends ServedPort<SecondFactors> implements SecondFactors {
  constructor() {
    super('auth');
  }

  async remove(tx: DbOrTx, userId: string): Promise<boolean> {
    return (await this.served()).remove(tx, userId);
  }
}
