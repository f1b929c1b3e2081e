import type { AuditActor } from './actor.js';

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
 * order that its worker carries out). Modules are encapsulated plugins, so the request goes through
 * this port in `Deps` rather than to the certificates module's services.
 */
export interface CertificateRequests {
  /** Stores the certificate as pending, audited, and answers its id; issuing follows in the background. */
  request(actor: AuditActor, request: CertificateRequest): Promise<{ id: string }>;
}

/** The port in `Deps`: built before the modules, served by the one that registers itself. */
export class CertificateRequestPort implements CertificateRequests {
  private server: CertificateRequests | undefined;

  serve(server: CertificateRequests): void {
    this.server = server;
  }

  request(actor: AuditActor, request: CertificateRequest): Promise<{ id: string }> {
    if (!this.server) return Promise.reject(new Error('the certificates module is not loaded'));
    return this.server.request(actor, request);
  }
}
