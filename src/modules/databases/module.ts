import type { GatewayModule } from '../../core/app.js';
import { CommandLog } from './command-log.js';
import { KeyValueConnections } from './connections.js';
import { KeyValueConsole } from './console.js';
import { KeyBrowser } from './keys-read.js';
import { keyReadRoutes } from './keys-read-routes.js';
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
  deps.onClose(async () => {
    await commandLog.flush();
    connections.closeAll();
  });
  await app.register(databaseRoutes, {
    prefix: '/api/databases',
    registry: new DatabaseRegistry({ ...deps, connections }),
    keyvalue: new KeyValueConsole({ ...deps, connections, commandLog }),
  });
  await app.register(keyReadRoutes, {
    prefix: '/api/databases',
    browser: new KeyBrowser({ ...deps, connections }),
  });
};

export default databasesModule;
