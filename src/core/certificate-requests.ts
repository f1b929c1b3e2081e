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

/**
 * Ordering a certificate across modules: pages asks, the certificates module serves (an http-01 ACME
 * order that its worker carries out).
 */
export interface CertificateRequests {
  /** Stores the certificate as pending, audited, and answers its id; issuing follows in the background. */
  request(actor: AuditActor, request: CertificateRequest): Promise<{ id: string }>;
}

/** The port in `Deps` (`deps.certificateRequests`), served by the certificates module. */
export class CertificateRequestPort extends ServedPort<CertificateRequests> implements CertificateRequests {
  constructor() {
    super('certificates');
  }

  async request(actor: AuditActor, request: CertificateRequest): Promise<{ id: string }> {
    return (await this.served()).request(actor, request);
  }
}
