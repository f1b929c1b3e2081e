import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/client.js';
import type { AuditChainPort } from './audit-chain-check.js';
import type { AuditRecorder } from './audit-recorder.js';
import type { AuditSequencer } from './audit-sequencer.js';
import type { PrincipalResolver } from './auth/principal-resolver.js';
import type { BackgroundJobs } from './background-jobs.js';
import type { CertificateChoicePort } from './certificate-choices.js';
import type { CertificateRequestPort } from './certificate-requests.js';
import type { EgressGuard } from './egress-guard.js';
import type { Metrics } from './metrics/registry.js';
import type { NotificationPort } from './notifications.js';
import type { SecondFactorPort } from './second-factors.js';
import type { SecretBox } from './secret-box.js';
import type { SignInThrottlePort } from './sign-in-throttle.js';

/** What services are built from: each module's `module.ts` builds its services from `app.deps`, once. */
export interface Deps {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  audit: AuditRecorder;
  /** Gives committed audit events their seq and chain hashes (a background job). */
  sequencer: AuditSequencer;
  secrets: SecretBox;
  egress: EgressGuard;
  jobs: BackgroundJobs;
  /** What GET /metrics answers: modules add their counters and collectors here. */
  metrics: Metrics;
  /** The notification outbox: `emit(tx, event)` inside the transaction of the change that causes it. */
  notifications: NotificationPort;
  principals: PrincipalResolver;
  /** Certificates ordered for names other modules serve (served by the certificates module). */
  certificateRequests: CertificateRequestPort;
  /** Certificates chosen for names other modules serve, which the TLS listener serves (served by pages). */
  certificateChoices: CertificateChoicePort;
  /** The failed-login throttle of every way in (served by the auth module). */
  signInThrottle: SignInThrottlePort;
  /** Removing a user's second factor when an administrator resets it (served by the auth module). */
  secondFactors: SecondFactorPort;
  /** Verifying the audit hash chain (served by the audit module). */
  auditChain: AuditChainPort;
  log: FastifyBaseLogger;
  /**
   * LISTEN on a channel (PostgreSQL NOTIFY from any gateway process on the same database, or the
   * embedded database's own notifications); answers the function that stops listening.
   */
  subscribe: Database['subscribe'];
  /** Closes things a module opened (pools, watchers) when the server closes. */
  onClose(hook: () => Promise<void> | void): void;
}
