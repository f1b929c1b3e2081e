import { ServedPort } from './served-port.js';

/** A link of the chain a walk starts from or must find: its seq and hash. */
export interface ChainLink {
  seq: number;
  hash: string;
}

/** What a walk of the audit hash chain found, as far as a reader outside the audit module needs it. */
export interface AuditChainState {
  valid: boolean;
  checkedEvents: number;
  /** The last sequenced event the walk reached (null while nothing is sequenced). */
  headSeq: number | null;
  headHash: string | null;
  verifiedAt: Date;
  firstBrokenLink: { seq: number; reason: string; explanation: string } | null;
}

/** Verifying the audit chain: the audit module serves it, the notification sweep reports on it. */
export interface AuditChainCheck {
  /** Walks the whole chain; when given a checkpoint, the chain must still hold it. */
  verify(checkpoint?: ChainLink): Promise<AuditChainState>;
  /** Walks only the events after `from`, which must still be in the chain as it was. */
  verifySince(from: ChainLink): Promise<AuditChainState>;
}

/** The port in `Deps` (`deps.auditChain`), served by the audit module. */
export class AuditChainPort extends ServedPort<AuditChainCheck> implements AuditChainCheck {
  constructor() {
    super('audit');
  }

  async verify(checkpoint?: ChainLink): Promise<AuditChainState> {
    return (await this.served()).verify(checkpoint);
  }

  async verifySince(from: ChainLink): Promise<AuditChainState> {
    return (await this.served()).verifySince(from);
  }
}
