import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Config, loadConfig } from '../../src/config.js';
import type { App } from '../../src/core/app.js';
import { issueToken } from '../../src/core/auth/tokens.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { groups, users } from '../../src/db/schema/index.js';
import { buildServer } from '../../src/server.js';

export interface BenchGateway {
  app: App;
  database: Database;
  config: Config;
  /** An API token of a user in `admins` (scope `*`). */
  token: string;
  userId: string;
  close(): Promise<void>;
}

export interface BenchGatewayOptions {
  /** A postgres:// URL; without it an in-memory PGlite, or PGlite in `pgliteDir`. */
  databaseUrl?: string;
  pgliteDir?: string;
  config?: Partial<Config>;
}

/** A real gateway for a benchmark: fresh database, silent, loopback egress allowed, one admin token. */
export async function startBenchGateway(options: BenchGatewayOptions = {}): Promise<BenchGateway> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-bench-'));
  const config = {
    ...loadConfig({ INFRAGATE_DATA_DIR: dataDir, INFRAGATE_EGRESS: 'any', LOG_LEVEL: 'silent' }),
    ...options.config,
  };
  const database = await openDatabase({
    url: options.databaseUrl,
    pgliteDir: options.pgliteDir,
    poolSize: 20,
  });
  await migrate(database.db);
  const app = await buildServer({ config, database, masterKey: crypto.randomBytes(32), logger: false });
  const [admins] = await database.db.select().from(groups);
  const [user] = await database.db
    .insert(users)
    .values({ email: `bench-${crypto.randomUUID()}@localhost`, name: 'bench', groupId: admins!.id })
    .returning();
  const { token } = await issueToken(database.db, {
    userId: user!.id,
    kind: 'api',
    name: 'bench',
    expiresAt: null,
  });
  return {
    app,
    database,
    config,
    token,
    userId: user!.id,
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
