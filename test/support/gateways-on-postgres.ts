import crypto from 'node:crypto';
import { inject } from 'vitest';
import type { Config } from '../../src/config.js';
import type { App } from '../../src/core/app.js';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { buildServer } from '../../src/server.js';
import { createDatabase } from '../services/postgres.js';
import { testConfig } from './gateway.js';

/**
 * `count` gateways, in this process, on one new migrated PostgreSQL database with one master key (so
 * each reads what another stored), each with its own pool of `poolSize`; closing an app closes its
 * pool. For the postgres project (`*.postgres.test.ts`), which provides `postgresUrl`.
 */
export async function startGatewaysOnOneDatabase(
  count: number,
  { poolSize = 3, config = testConfig() }: { poolSize?: number; config?: Config } = {},
): Promise<App[]> {
  const url = await createDatabase(inject('postgresUrl'));
  const masterKey = crypto.randomBytes(32);
  const migrating = await openDatabase({ url, poolSize: 1 });
  await migrate(migrating.db);
  await migrating.close();
  const apps: App[] = [];
  for (let i = 0; i < count; i++) {
    const database = await openDatabase({ url, poolSize });
    const app = await buildServer({ config, database, masterKey, logger: false });
    app.addHook('onClose', async () => database.close());
    await app.ready();
    apps.push(app);
  }
  return apps;
}
