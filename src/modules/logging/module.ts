import type { GatewayModule } from '../../core/app.js';
import { LogAlertRules } from './alert-rules.js';
import { LogEnvironmentService } from './environments.js';
import { IngestService } from './ingest-service.js';
import { IngestTokens } from './ingest-tokens.js';
import { LogSchemaService } from './log-schemas.js';
import { LogPartitions } from './partitions.js';
import { RecordSearch } from './record-search.js';
import { RecordStore } from './record-store.js';
import { RecordTail } from './record-tail.js';
import { LogRetention } from './retention.js';
import { logEnvironmentRoutes } from './routes/environments.js';
import { folderTreeRoutes } from './routes/folders.js';
import { ingestRoutes } from './routes/ingest.js';
import { recordRoutes } from './routes/records.js';
import { savedSearchRoutes } from './routes/saved-searches.js';
import { logSchemaRoutes } from './routes/schemas.js';
import { multiSearchRoutes } from './routes/search.js';
import { ingestTokenRoutes } from './routes/tokens.js';
import { SavedSearches } from './saved-searches.js';
import { LogEnvironment, LogSchema } from './schemas.js';

/**
 * Logging: the configuration (two folder trees, schemas, environments) and the log store of each
 * environment (ingest tokens, ingest over HTTP and OTLP, search, facets, histogram, live tail, and
 * the partition job that keeps retention). Builds every service once and registers the routes.
 */
const loggingModule: GatewayModule = async (app) => {
  const { deps } = app;
  const schemas = new LogSchemaService(deps);
  const environments = new LogEnvironmentService({ ...deps, schemaFolders: schemas.folders });
  const partitions = new LogPartitions(deps);
  const tail = new RecordTail(deps);
  deps.onClose(await tail.listen());
  // Open tails would keep the server from closing: they end first.
  app.addHook('preClose', async () => tail.endAll());
  new LogRetention({ ...deps, partitions }).register();
  const tokens = new IngestTokens({ ...deps, environments });
  const ingest = new IngestService({
    store: new RecordStore({ ...deps, partitions }),
    tail,
    metrics: deps.metrics,
  });
  const search = new RecordSearch({ ...deps, environments });
  new LogAlertRules({ ...deps, search }).register();

  await app.register(folderTreeRoutes, {
    prefix: '/api/logging/schema-folders',
    tree: schemas.folders,
    tag: 'logging schemas',
    item: 'schema',
    items: 'schemas',
    itemSchema: LogSchema,
    moveItems: (actor, ids, folderId) => schemas.moveSchemas(actor, ids, folderId),
  });
  await app.register(folderTreeRoutes, {
    prefix: '/api/logging/environment-folders',
    tree: environments.folders,
    tag: 'logging environments',
    item: 'environment',
    items: 'environments',
    itemSchema: LogEnvironment,
    moveItems: (actor, ids, folderId) => environments.moveEnvironments(actor, ids, folderId),
  });
  await app.register(logSchemaRoutes, { prefix: '/api/logging/schemas', schemas });
  await app.register(logEnvironmentRoutes, { prefix: '/api/logging/environments', environments });
  await app.register(ingestTokenRoutes, { prefix: '/api/logging/environments', tokens });
  await app.register(recordRoutes, { prefix: '/api/logging/environments', search, tail });
  await app.register(savedSearchRoutes, {
    prefix: '/api/logging/environments',
    saved: new SavedSearches({ ...deps, environments }),
  });
  await app.register(multiSearchRoutes, { search });
  await app.register(ingestRoutes, { tokens, ingest });
};

export default loggingModule;
