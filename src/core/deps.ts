import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { AuditRecorder } from './audit-recorder.js';
import type { AuditSequencer } from './audit-sequencer.js';
import type { PrincipalResolver } from './auth/principal-resolver.js';
import type { BackgroundJobs } from './background-jobs.js';
import type { EgressGuard } from './egress-guard.js';
import type { SecretBox } from './secret-box.js';

/** What services are built from. Routes pass `app.deps` to a module's service factory once. */
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
  principals: PrincipalResolver;
  log: FastifyBaseLogger;
  /** Closes things a module opened (pools, watchers) when the server closes. */
  onClose(hook: () => Promise<void> | void): void;
}

/** Route-level access declaration: exactly one of these on every route. */
export interface RouteAccess {
  /** The scope the caller needs, or `authenticated` for any signed-in caller. */
  scope?: string;
  /** Reachable without a token (health, docs, login, public pages). */
  public?: boolean;
}
