import type { GatewayModule } from '../../core/app.js';
import { BulkDeleter } from './bulk-delete.js';
import { bulkDeleteRoutes } from './bulk-delete-routes.js';
import { CommandLog } from './command-log.js';
import { KeyValueConnections } from './connections.js';
import { KeyValueConsole } from './console.js';
import { KeyEditor } from './keys-edit.js';
import { keyEditRoutes } from './keys-edit-routes.js';
import { KeyBrowser } from './keys-read.js';
import { keyReadRoutes } from './keys-read-routes.js';
import { ServerPanes } from './panes.js';
import { paneRoutes } from './panes-routes.js';
import { DatabaseRegistry } from './registry.js';
import { databaseRoutes } from './routes.js';

/**
 * Key-value databases: builds the connection pools, the registry and the console once, registers
 * their routes, and on shutdown writes the pending console records before closing the pools.
 */
const databasesModule: GatewayModule = async (app) => {
  const { deps } = app;
  const connections = new KeyValueConnections(deps);
  const commandLog = new CommandLog(deps);
  const bulk = new BulkDeleter({ ...deps, connections });
  deps.onClose(async () => {
    await bulk.stopAll();
    await commandLog.flush();
    connections.closeAll();
  });
  await app.register(databaseRoutes, {
    prefix: '/api/databases',
    registry: new DatabaseRegistry({ ...deps, connections }),
    keyvalue: new KeyValueConsole({ ...deps, connections, commandLog }),
  });
  await app.register(keyEditRoutes, {
    prefix: '/api/databases',
    editor: new KeyEditor({ ...deps, connections }),
  });
  await app.register(paneRoutes, {
    prefix: '/api/databases',
    panes: new ServerPanes({ ...deps, connections }),
  });
  await app.register(bulkDeleteRoutes, { prefix: '/api/databases', bulk });
  await app.register(keyReadRoutes, {
    prefix: '/api/databases',
    browser: new KeyBrowser({ ...deps, connections }),
  });
};

export default databasesModule;
