import type { GatewayModule } from '../../core/app.js';
import { logEnvironmentRoutes } from './routes/environments.js';
import { folderTreeRoutes } from './routes/folders.js';
import { logSchemaRoutes } from './routes/schemas.js';
import { LogEnvironment, LogSchema } from './schemas.js';
import { LoggingService } from './service.js';

/**
 * Logging configuration: builds the service once and registers the routes of its two folder trees,
 * its schemas and its environments (`logging:view` / `logging:manage`).
 */
const loggingModule: GatewayModule = async (app) => {
  const logging = new LoggingService(app.deps);
  await app.register(folderTreeRoutes, {
    prefix: '/api/logging/schema-folders',
    tree: logging.schemaFolders,
    tag: 'logging schemas',
    item: 'schema',
    items: 'schemas',
    itemSchema: LogSchema,
    moveItems: (actor, ids, folderId) => logging.moveSchemas(actor, ids, folderId),
  });
  await app.register(folderTreeRoutes, {
    prefix: '/api/logging/environment-folders',
    tree: logging.environmentFolders,
    tag: 'logging environments',
    item: 'environment',
    items: 'environments',
    itemSchema: LogEnvironment,
    moveItems: (actor, ids, folderId) => logging.moveEnvironments(actor, ids, folderId),
  });
  await app.register(logSchemaRoutes, { prefix: '/api/logging/schemas', logging });
  await app.register(logEnvironmentRoutes, { prefix: '/api/logging/environments', logging });
};

export default loggingModule;
