import { ServedPort } from './served-port.js';

/** What a walk of the audit hash chain found, as far as a reader outside the audit module needs it. */
export interface AuditChainState {
  valid: boolean;
  checkedEvents: number;
  verifiedAt: Date;
  firstBrokenLink: { seq: number; reason: string; explanation: string } | null;
}

/** Verifying the whole audit chain: the audit module serves it, the notification sweep reports on it. */
export interface AuditChainCheck {
  verify(): Promise<AuditChainState>;
}

/** The port in `Deps` (`deps.auditChain`), served by the audit module. */
export class AuditChainPort extends ServedPort<AuditChainCheck> implements AuditChainCheck {
  constructor() {
    super('audit');
  }

  async verify(): Promise<AuditChainState> {
    return (await this.served()).verify();
  }
}
