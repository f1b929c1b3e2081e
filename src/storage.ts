import path from 'node:path';
import type { Config } from './config.js';
import { loadMasterKey } from './core/secret-box.js';
import { type Database, openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';

export interface GatewayStorage {
  database: Database;
  masterKey: Buffer;
  /** Migrations applied by this open (empty when the database was current). */
  migrated: string[];
}

/** Opens the configured database (PGlite in the data dir unless DATABASE_URL is set) and migrates it. */
export async function openStorage(config: Config): Promise<GatewayStorage> {
  const masterKey = loadMasterKey(config.masterKey, config.dataDir);
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
  });
  try {
    const migrated = await migrate(database.db);
    return { database, masterKey, migrated };
  } catch (error) {
    await database.close();
    throw error;
  }
}
