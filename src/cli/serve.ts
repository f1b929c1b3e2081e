import { bootstrapFirstAdmin, FIRST_ADMIN_EMAIL } from '../bootstrap.js';
import type { Config } from '../config.js';
import { type HttpsListener, listenHttps } from '../modules/certificates/tls/https-listener.js';
import { SETUP_PAGE_PATH } from '../modules/console/setup-codes.js';
import { buildServer } from '../server.js';
import { openStorage } from '../storage.js';
import { listenAdminSocket } from './admin-socket.js';

/** `infragate serve`: migrate, create the first admin on an empty database, listen, shut down gracefully. */
export async function serve(config: Config): Promise<void> {
  const storage = await openStorage(config);
  const app = await buildServer({ config, database: storage.database, masterKey: storage.masterKey });
  app.addHook('onClose', async () => storage.database.close());
  const closeSocket = await listenAdminSocket(config.dataDir, app.deps);
  app.addHook('preClose', async () => closeSocket());

  let https: HttpsListener | undefined;
  app.addHook('preClose', async () => https?.close());

  const firstAdmin = await bootstrapFirstAdmin(app.deps.db, app.deps.audit, config.setupCodeTtlSeconds);
  const address = await app.listen({ port: config.port, host: config.host });
  const base = address.replace('0.0.0.0', '127.0.0.1');
  const lines = [
    `infragate listening on ${base} (database: ${storage.database.kind}${config.databaseUrl ? '' : ` in ${config.dataDir}/db`})`,
    `Console: ${base}/   API docs: ${base}/docs   OpenAPI: ${base}/openapi.json`,
  ];
  if (config.https.port !== undefined) {
    https = await listenHttps(app, storage.database, {
      port: config.https.port,
      host: config.host,
      defaultCertificate: config.https.defaultCertificate,
    });
    lines.push(`HTTPS on port ${https.port}: certificate chosen per SNI name from the stored certificates`);
  }
  if (firstAdmin) {
    const minutes = Math.round(config.setupCodeTtlSeconds / 60);
    lines.push(
      '',
      `First start: created ${FIRST_ADMIN_EMAIL} in group admins. Its API token is shown once:`,
      `  ${firstAdmin.token}`,
      `Try: curl -H "Authorization: Bearer ${firstAdmin.token}" ${base}/auth/me`,
      `Use it from the CLI: infragate login --url ${base} --token-stdin`,
      `Set its password in the browser (one-time link, valid for ${minutes} minutes):`,
      `  ${base}${SETUP_PAGE_PATH}?code=${firstAdmin.setupCode}`,
      '',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, draining requests');
    const forced = setTimeout(() => process.exit(1), 15_000);
    forced.unref();
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
