import type { TestGateway } from '../../support/gateway.js';

/**
 * One record that holds a write-only secret and sends it somewhere, for the walk in
 * test/hardening/secret-destinations.test.ts. The walk starts a capture server on loopback (every
 * request it receives is kept, headers and body), creates the record pointing at a first address
 * with the secret, changes its destination to the capture server *without* supplying the secret,
 * makes the gateway call the destination, and proves the secret's text never reached the capture
 * server (and that the change's answer names the dropped secret in `droppedSecrets`).
 */
export interface SecretDestinationCase {
  /** `METHOD /path/template` of the operation that changes the destination, as in /openapi.json. */
  operation: string;
  /** The write-only secret's value, unique to this case: the capture server must never see it. */
  secret: string;
  /** The request field that carries the secret (what `droppedSecrets` names). */
  secretField: string;
  /** Creates the record with the secret, pointing at `firstDestination`; answers its path (e.g. `/api/databases/<id>`). */
  create(gateway: TestGateway, firstDestination: string): Promise<string>;
  /** Changes the record's destination to `capture` (without the secret); answers the change's response. */
  retarget(
    gateway: TestGateway,
    recordPath: string,
    capture: CaptureTarget,
  ): Promise<{ status: number; body: unknown }>;
  /** Makes the gateway use the record now (a test send, a command, a probe): it goes to the new destination. */
  use(gateway: TestGateway, recordPath: string): Promise<unknown>;
}

/** Where the capture server listens, in the forms records take. */
export interface CaptureTarget {
  /** `http://127.0.0.1:<port>` */
  httpUrl: string;
  host: string;
  port: number;
}
