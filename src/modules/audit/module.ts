import type { GatewayModule } from '../../core/app.js';
import { queueCollector } from '../../core/metrics/queue-metrics.js';
import { siemDeliveries } from '../../db/schema/index.js';
import { AuditChainService } from './chain.js';
import { CheckpointSigner } from './checkpoint-signer.js';
import { DeliveryService } from './deliveries.js';
import { DestinationService } from './destinations.js';
import { AuditEventService } from './events.js';
import { SiemExporter } from './exporter.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { destinationRoutes } from './routes/destinations.js';
import { eventRoutes } from './routes/events.js';

/**
 * The audit trail (read, verify) and its export to SIEM destinations: builds the services and the
 * export worker once, runs the worker as a background job (and at once whenever events are
 * sequenced), and registers the routes.
 */
const auditModule: GatewayModule = async (app) => {
  const { deps } = app;
  const exporter = new SiemExporter(deps);
  exporter.register();
  deps.metrics.collect(
    queueCollector(deps.db, {
      name: 'siem',
      what: 'SIEM export',
      table: siemDeliveries,
      open: ['queued', 'delivering', 'retrying', 'failed', 'paused'],
    }),
  );
  deps.audit.onSequenced(() => exporter.wake());

  const chain = new AuditChainService({ ...deps, signer: new CheckpointSigner(deps) });
  // The notification sweep reports a broken chain.
  deps.auditChain.serve({
    verify: (checkpoint) =>
      chain.verify(checkpoint ? { checkpointSeq: checkpoint.seq, checkpointHash: checkpoint.hash } : {}),
    verifySince: (from) => chain.verifySince(from),
  });

  await app.register(eventRoutes, { prefix: '/api/audit', events: new AuditEventService(deps), chain });
  await app.register(destinationRoutes, {
    prefix: '/api/audit/siem/destinations',
    destinations: new DestinationService(deps),
  });
  await app.register(deliveryRoutes, {
    prefix: '/api/audit/siem/deliveries',
    deliveries: new DeliveryService({ ...deps, wakeExporter: () => exporter.wake() }),
  });
};

export default auditModule;
