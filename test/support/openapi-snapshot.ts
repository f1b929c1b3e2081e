import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { buildServer } from '../../src/server.js';

/** Where the reviewed copy of the API document lives (committed, so API changes show in diffs). */
export const openApiSnapshotPath = path.resolve(import.meta.dirname, '../../docs/openapi.json');

/** The document a gateway with the default configuration serves at /openapi.json. */
export async function servedOpenApiDocument(): Promise<unknown> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-openapi-'));
  const database = await openDatabase({});
  try {
    await migrate(database.db);
    const config = loadConfig({ INFRAGATE_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const app = await buildServer({ config, database, masterKey: Buffer.alloc(32), logger: false });
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
