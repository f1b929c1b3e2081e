import type { Tx } from '../db/client.js';
import type { AuditActor } from './actor.js';
import { ServedPort } from './served-port.js';

/** A certificate another module needs for names it serves, obtained by the gateway itself. */
export interface CertificateRequest {
  /** The stored certificate's name (unique among certificates). */
  name: string;
  hostnames: string[];
  /** The ACME account the order is made with. */
  accountEmail: string;
}

/** A certificate obtained through `request()` that the names it was ordered for no longer use. */
export interface CertificateRelease {
  certificateId: string;
  /** Why, in words, for the audit event (e.g. `pages domain docs.example.com deleted`). */
  reason: string;
}

/**
 * Ordering a certificate across modules: pages asks, the certificates module serves (an http-01 ACME
 * order that its worker carries out).
 */
export interface CertificateRequests {
  /** Stores the certificate as pending, audited, and answers its id; issuing follows in the background. */
  request(actor: AuditActor, request: CertificateRequest): Promise<{ id: string }>;
  /**
   * Gives a requested certificate back inside the caller's transaction: it is deleted (audited), so
   * it is no longer renewed, unless the gateway serves it as its default certificate. The caller
   * has checked that none of its own names uses it.
   */
  release(tx: Tx, actor: AuditActor, release: CertificateRelease): Promise<void>;
}

/** The port in `Deps` (`deps.certificateRequests`), served by the certificates module. */
export class CertificateRequestPort extends ServedPort<CertificateRequests> implements CertificateRequests {
  constructor() {
    super('certificates');
  }

  async request(actor: AuditActor, request: CertificateRequest): Promise<{ id: string }> {
    return (await this.served()).request(actor, request);
  }

  async release(tx: Tx, actor: AuditActor, release: CertificateRelease): Promise<void> {
    return (await this.served()).release(tx, actor, release);
  }
}
