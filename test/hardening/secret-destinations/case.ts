import type { CapturedAnswer, CapturedRequest } from '../../services/capture-server.js';
import type { TestGateway } from '../../support/gateway.js';

/**
 * One record that holds a write-only secret and sends it somewhere, for the walk in
 * test/hardening/secret-destinations.test.ts. The walk starts a capture server on loopback (every
 * byte it receives is kept, HTTP and RESP alike), creates the record pointing at a first address
 * with the secret, uses it once there (so any cached connection or token of the record is warm),
 * changes its destination to the capture server *without* supplying the secret, makes the gateway
 * use the record again, and proves the secret's text never reached the capture server in any
 * encoding (and that the change's answer names the dropped secret in `droppedSecrets`).
 *
 * Every file of this folder but this one is loaded by the walk, and each export that is a case is
 * walked; the walk also fails for a PATCH/PUT of /openapi.json with a `writeOnly` field that no case
 * names (test/hardening/secret-destinations.test.ts lists the exempt ones, with why).
 */
export interface SecretDestinationCase {
  /** `METHOD /path/template` of the operation that changes the destination, as in /openapi.json. */
  operation: string;
  /** The write-only secret's value, unique to this case: the capture server must never see it. */
  secret: string;
  /** The request field that carries the secret (what `droppedSecrets` names). */
  secretField: string;
  /** Why this case cannot run on this machine (a peer is not installed); absent: it runs. */
  skipReason?: string;
  /**
   * Starts what the record must reach to be created (a host that must pass a test first); its
   * `destination` is the `firstDestination` given to `create`, and it is closed after the case.
   * Without it, the first destination is a second capture server's `http://127.0.0.1:<port>`
   * (which may see the secret: it was given for it).
   */
  peer?(): Promise<{ destination: string; close(): Promise<void> }>;
  /**
   * How the capture server answers one of this case's HTTP requests when `200 {}` will not do (an
   * issuer's discovery document); undefined: `200 {}`.
   */
  answer?(request: CapturedRequest, capture: CaptureTarget): CapturedAnswer | undefined;
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
