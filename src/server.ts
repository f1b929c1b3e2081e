import crypto from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import pino from 'pino';
import type { Config } from './config.js';
import { registerAccessAudit } from './core/access-audit.js';
import type { App, RouteAccess, RouteRecord } from './core/app.js';
import { AuditChainPort } from './core/audit-chain-check.js';
import { AuditRecorder } from './core/audit-recorder.js';
import { AuditSequencer } from './core/audit-sequencer.js';
import { registerAuthentication } from './core/auth/authenticate.js';
import { PrincipalResolver } from './core/auth/principal-resolver.js';
import { BackgroundJobs } from './core/background-jobs.js';
import { CertificateChoicePort } from './core/certificate-choices.js';
import { CertificateRequestPort } from './core/certificate-requests.js';
import type { Deps } from './core/deps.js';
import { EgressGuard } from './core/egress-guard.js';
import { answerFrameworkError, registerErrorHandling } from './core/http-errors.js';
import { registerHttpsPolicy } from './core/https-policy.js';
import { registerInputGuard } from './core/input-guard.js';
import { registerJsonBodyParser } from './core/json-body.js';
import { HttpMetrics } from './core/metrics/http-metrics.js';
import { jobsCollector } from './core/metrics/job-metrics.js';
import { poolCollector } from './core/metrics/pool-metrics.js';
import { processCollector } from './core/metrics/process-metrics.js';
import { Metrics } from './core/metrics/registry.js';
import { NotificationPort } from './core/notifications.js';
import { completeDocument, documentRoute } from './core/openapi/openapi-document.js';
import { SECURITY_SCHEMES } from './core/openapi/security.js';
import { requestForLog } from './core/query-free-log.js';
import { OneLinePerRequest } from './core/request-log.js';
import { SecondFactorPort } from './core/second-factors.js';
import { SecretBox } from './core/secret-box.js';
import { PagePolicies, registerSecurityHeaders } from './core/security-headers.js';
import { SignInThrottlePort } from './core/sign-in-throttle.js';
import { registerValidation } from './core/validation.js';
import { registerWebSockets } from './core/websockets.js';
import type { Database } from './db/client.js';
import { modules } from './modules/index.js';

export interface ServerOptions {
  config: Config;
  database: Database;
  masterKey: Buffer;
  /** Pass `false` to silence logs (tests, benches). */
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them back to prove secrets never appear). */
  logStream?: NodeJS.WritableStream;
  /**
   * Close the database when the server closes, after the background jobs stopped and the modules
   * wrote what they still hold (an onClose hook of the caller would run before those: hooks run
   * in reverse order of registration).
   */
  closeDatabase?: boolean;
  /** Told of every answer a route gave (the test gateway checks each against /openapi.json). */
  onAnswer?: (answer: RouteAnswer) => void;
}

/** One answer of a route: the method, the route's pattern (`/api/x/:id`) and the status sent. */
export interface RouteAnswer {
  method: string;
  route: string;
  status: number;
  /** Whether the route is left out of /openapi.json (`schema.hide`). */
  hidden: boolean;
}

// Routes under these prefixes are served by documentation plugins and need no token.
const PUBLIC_PREFIXES = ['/docs'];

const API_VERSION = '1.0.0';
/** The SPDX identifier of package.json's `license`, stated in the API document. */
const LICENSE = 'Apache-2.0';

const INVALIDATION_CHANNEL = 'infragate_invalidate';

/**
 * Several gateways on one PostgreSQL: a revoke, disable or scope change in one process drops the
 * principal caches of all of them through NOTIFY (the embedded PGlite has a single process).
 */
async function shareInvalidations(
  database: Database,
  principals: PrincipalResolver,
  instanceId: string,
  closers: (() => Promise<void> | void)[],
): Promise<void> {
  if (database.kind !== 'postgres') return;
  const unsubscribe = await database.subscribe(INVALIDATION_CHANNEL, (sender) => {
    if (sender !== instanceId) principals.invalidateLocal();
  });
  closers.push(unsubscribe);
  principals.onInvalidate(() => {
    database.db.execute(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${instanceId})`).catch(() => {
      // The other processes' caches then expire by TTL (seconds) instead of at once.
    });
  });
}

/** Builds the gateway without listening: tests use `inject()` or `listen({port: 0})`. */
export async function buildServer(options: ServerOptions): Promise<App> {
  const { config, database } = options;
  // Every request is logged at the default level, so stdout is buffered: written in blocks of 4 KiB
  // or every 100 ms, whichever comes first, asynchronously. pino writes what is left synchronously
  // when the process exits, and onClose below does on a clean shutdown: only a kill -9 can lose
  // the last 100 ms of lines.
  const stdout =
    options.logger === false || options.logStream
      ? undefined
      : pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 });
  const metrics = new Metrics();
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]'],
            serializers: { req: requestForLog },
            stream: options.logStream ?? stdout,
          },
    logController: new OneLinePerRequest(new HttpMetrics(metrics)),
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => crypto.randomUUID(),
    trustProxy: false,
    forceCloseConnections: 'idle',
    // Long ids must reach validation (and a clear 400/404) rather than fail inside the router.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const closers: (() => Promise<void> | void)[] = [];
  const principals = new PrincipalResolver(database.db);
  const instanceId = crypto.randomUUID();
  const jobs = new BackgroundJobs({ log: app.log, db: database.db, instanceId });
  const egress = new EgressGuard(config.egress);
  const audit = new AuditRecorder();
  closers.push(database.onCommit((tx) => audit.transactionCommitted(tx)));
  const sequencer = new AuditSequencer({ db: database.db, audit, jobs, log: app.log });
  const processMetrics = processCollector();
  closers.push(() => processMetrics.stop());
  for (const collector of [processMetrics, jobsCollector(jobs), poolCollector(database)])
    metrics.collect(collector);
  closers.push(await sequencer.listen(database));
  const deps: Deps = {
    config,
    db: database.db,
    dbKind: database.kind,
    audit,
    sequencer,
    secrets: new SecretBox(options.masterKey),
    egress,
    jobs,
    metrics,
    notifications: new NotificationPort(),
    principals,
    certificateRequests: new CertificateRequestPort(),
    certificateChoices: new CertificateChoicePort(),
    signInThrottle: new SignInThrottlePort(),
    secondFactors: new SecondFactorPort(),
    auditChain: new AuditChainPort(),
    log: app.log,
    subscribe: database.subscribe,
    onClose: (hook) => closers.push(hook),
  };
  app.decorate('deps', deps);
  await shareInvalidations(database, principals, instanceId, closers);
  registerAccessAudit(app, database.db, deps.audit);
  const { onAnswer } = options;
  if (onAnswer)
    app.addHook('onResponse', async (request, reply) => {
      const { url, schema } = request.routeOptions;
      if (url !== undefined)
        onAnswer({
          method: request.method,
          route: url,
          status: reply.statusCode,
          hidden: schema?.hide === true,
        });
    });
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => {
    await jobs.stop();
    for (const close of closers.reverse()) await close();
    await egress.close();
    if (options.closeDatabase) await database.close();
    stdout?.flushSync();
  });
  const routeCatalog: RouteRecord[] = [];
  app.decorate('routeCatalog', routeCatalog);
  app.addHook('onRoute', (route) => {
    if (PUBLIC_PREFIXES.some((prefix) => route.url.startsWith(prefix)))
      route.config = { ...route.config, public: true };
    const access = (route.config ?? {}) as RouteAccess;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        routeCatalog.push({ method, url: route.url, scope: access.scope, public: access.public === true });
    }
  });

  registerValidation(app);
  registerErrorHandling(app);
  registerSecurityHeaders(app, { https: config.cookieSecure, policies: new PagePolicies(config.publicUrl) });
  registerHttpsPolicy(app, config.https);
  registerJsonBodyParser(app);
  registerInputGuard(app);
  // No parsing hook on every request: `sessionCookie()` parses the cookie header when it is needed.
  await app.register(fastifyCookie, { hook: false });
  // Before authentication: its onRequest marks upgrades, so a refused one (401/403) still closes its socket.
  await registerWebSockets(app);
  registerAuthentication(app, principals);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'infragate API',
        version: API_VERSION,
        description:
          'Self-hosted administration gateway. Authenticate with `Authorization: Bearer <token>`, or with the ' +
          'console session cookie plus the `x-csrf-token` header for changes. With `INFRAGATE_HTTPS_REDIRECT`, ' +
          'every operation answers a plain-HTTP request with 308 to the same path over HTTPS.',
      },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: documentRoute,
    transformObject: (documentObject) =>
      completeDocument('openapiObject' in documentObject ? documentObject.openapiObject : {}, {
        version: API_VERSION,
        publicUrl: config.publicUrl,
        license: LICENSE,
      }),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  for (const module of modules) await app.register(module);
  return app;
}
