import https from 'node:https';
import type net from 'node:net';
import type { App } from '../../../core/app.js';
import { CERTIFICATE_CHOICE_CHANNEL } from '../../../core/certificate-choices.js';
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
 * SNI name from the stored certificates. Every certificate change announced on the change feed, and
 * every change of a certificate chosen for a host name (by any gateway process on PostgreSQL, by
 * this one on PGlite), drops the cached contexts.
 */
export async function listenHttps(
  app: App,
  database: Pick<Database, 'subscribe'>,
  options: { port: number; host: string; defaultCertificate: string | undefined },
): Promise<HttpsListener> {
  const contexts = new CertificateContexts({ ...app.deps, defaultCertificate: options.defaultCertificate });
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
  const changed = () => {
    contexts.invalidate();
    void applyDefault();
  };
  const unsubscribers = [
    await database.subscribe(CERTIFICATE_CHANNEL, changed),
    await database.subscribe(CERTIFICATE_CHOICE_CHANNEL, changed),
  ];
  await applyDefault();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  app.httpsPort.listening(port);
  return {
    port,
    async close() {
      for (const unsubscribe of unsubscribers) await unsubscribe();
      server.closeIdleConnections();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
