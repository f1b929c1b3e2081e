import fs from 'node:fs';
import type { GatewayModule } from '../../core/app.js';
import { AcmeAccounts } from './acme/accounts.js';
import { ChallengeStore } from './acme/challenges.js';
import { DnsProviderService } from './acme/dns-providers.js';
import { AcmeOrderService } from './acme/order-service.js';
import { AcmeOrderer } from './acme/orderer.js';
import { acmeChallengeRoutes, acmeRoutes } from './acme/routes.js';
import { AcmeTransport } from './acme/transport.js';
import { ACME_JOB, AcmeWorker } from './acme/worker.js';
import { CertificateService } from './certificates.js';
import { certificateRoutes } from './routes.js';

/** Certificates: builds the services and the ACME worker once and registers the routes. */
const certificatesModule: GatewayModule = async (app) => {
  const { deps } = app;
  const { trustedCaFile } = deps.config.acme;
  const transport = new AcmeTransport({
    ...deps,
    trustedCaPem: trustedCaFile ? fs.readFileSync(trustedCaFile, 'utf8') : undefined,
  });
  deps.onClose(() => transport.close());
  const certificates = new CertificateService(deps);
  const accounts = new AcmeAccounts({ ...deps, transport });
  const challenges = new ChallengeStore(deps);
  const providers = new DnsProviderService(deps);
  const orderer = new AcmeOrderer({ ...deps, accounts, challenges });
  const worker = new AcmeWorker({ ...deps, orderer, challenges, providers });
  deps.jobs.register({ name: ACME_JOB, intervalMs: deps.config.acme.intervalMs, run: () => worker.run() });

  const orders = new AcmeOrderService({ ...deps, certificates, accounts });
  // Names other modules serve (pages custom domains) are proven over HTTP, which the gateway answers itself.
  deps.certificateRequests.serve({
    request: (actor, { name, hostnames, accountEmail }) =>
      orders.order(actor, { name, domains: hostnames, challenge: 'http-01', accountEmail }),
    release: (tx, actor, release) => certificates.release(tx, actor, release),
  });

  await app.register(certificateRoutes, { prefix: '/api/ssl-certificates', certificates });
  await app.register(acmeRoutes, { prefix: '/api/ssl-certificates', orders, providers });
  await app.register(acmeChallengeRoutes, { challenges });
};

export default certificatesModule;
