import https from 'node:https';
import type net from 'node:net';
import type { App } from '../../../core/app.js';
import type { Database } from '../../../db/client.js';
import { CERTIFICATE_CHANNEL } from '../change-feed.js';
import { CertificateContexts } from './certificate-contexts.js';
import { TLS_SETTINGS } from './tls-settings.js';

export interface HttpsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * The TLS listener (`HTTPS_PORT`): the same app as the HTTP listener, its certificate chosen per
 * SNI name from the stored certificates. Every certificate change announced on the change feed (by
 * any gateway process on PostgreSQL, by this one on PGlite) drops the cached contexts.
 */
export async function listenHttps(
  app: App,
  database: Pick<Database, 'subscribe'>,
  options: { port: number; host: string; defaultCertificate: string | undefined },
): Promise<HttpsListener> {
  const contexts = new CertificateContexts(app.deps.db, app.deps.secrets, options.defaultCertificate);
  const server = https.createServer(
    {
      ...TLS_SETTINGS,
      SNICallback: (servername, callback) => {
        contexts.contextFor(servername).then(
          (context) =>
            context
              ? callback(null, context)
              : callback(new Error(`no certificate for ${servername || 'a client without SNI'}`)),
          (error: Error) => {
            app.log.error({ err: error, servername }, 'TLS certificate could not be loaded');
            callback(error);
          },
        );
      },
    },
    (request, response) => app.routing(request, response),
  );
  server.on('tlsClientError', (error: Error) => app.log.debug({ err: error }, 'TLS handshake failed'));
  // Clients that send no SNI name (an IP address in the URL) never reach SNICallback: the server's
  // own context carries the default certificate, kept current like the others.
  const applyDefault = () =>
    contexts.defaultMaterial().then(
      (material) => material && server.setSecureContext(material),
      (error: Error) => app.log.error({ err: error }, 'default TLS certificate could not be loaded'),
    );
  const unsubscribe = await database.subscribe(CERTIFICATE_CHANNEL, () => {
    contexts.invalidate();
    void applyDefault();
  });
  await applyDefault();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      await unsubscribe();
      server.closeIdleConnections();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
