import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { inject } from 'vitest';
import { type Config, loadConfig } from '../../src/config.js';
import type { App } from '../../src/core/app.js';
import { issueToken } from '../../src/core/auth/tokens.js';
import type { Deps } from '../../src/core/deps.js';
import { type Database, type Db, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { groups, users } from '../../src/db/schema/index.js';
import { buildServer } from '../../src/server.js';
import { createDatabase } from '../services/postgres.js';
import { AnswerLedger } from './answer-ledger.js';

export type TestDbKind = 'pglite' | 'postgres';
/** Which database this vitest project runs against (see vitest.config.ts). */
export const testDbKind: TestDbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as-is (e.g. malformed JSON or a raw upload); sets no content type unless given. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
}

export interface CallResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export interface TestGateway {
  app: App;
  deps: Deps;
  config: Config;
  /** Token of admin@test (scope `*`). */
  adminToken: string;
  adminUserId: string;
  call(method: string, url: string, options?: CallOptions): Promise<CallResult>;
  /** A new user in a new group holding exactly these scopes; answers its API token. */
  tokenWithScopes(scopes: string[]): Promise<string>;
  /** Base URL once `listen()` was called. */
  listen(): Promise<string>;
  /** Closes the gateway; fails when a route answered a status its /openapi.json operation does not declare. */
  close(): Promise<void>;
}

/** Config for tests: a temp data dir, loopback egress allowed, quiet logs, no real ACME CA. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-test-'));
  return {
    ...loadConfig({
      INFRAGATE_DATA_DIR: dataDir,
      INFRAGATE_EGRESS: 'any',
      LOG_LEVEL: 'silent',
      // An ACME order that names no directory must never reach Let's Encrypt from a test: port 1 is
      // one fetch refuses to connect to, so such an order fails at once without leaving the machine.
      INFRAGATE_ACME_DIRECTORY_URL: 'https://127.0.0.1:1/directory',
    }),
    ...overrides,
  };
}

/** Opens a fresh, empty database of this project's kind: in-memory PGlite, or a new database on the shared PostgreSQL. */
export async function openEmptyTestDatabase() {
  const url = testDbKind === 'postgres' ? await createDatabase(inject('postgresUrl')) : undefined;
  return openDatabase({ url, poolSize: 20 });
}

/** Opens a fresh database of this project's kind with every migration applied. */
export async function openTestDatabase() {
  if (testDbKind === 'pglite') return openDatabase({ pgliteData: await migratedPgliteData() });
  const database = await openEmptyTestDatabase();
  await migrate(database.db);
  return database;
}

/**
 * A PGlite data directory with every migration applied, as a tarball. PGlite runs initdb for each
 * new in-memory database, which costs seconds; so the migrated directory is made once for a given
 * set of migrations and PGlite version, kept in the temp dir for the suite's other processes, and
 * every test database starts from a copy of it.
 */
function migratedPgliteData(): Promise<Blob> {
  migratedData ??= (async () => {
    const file = path.join(os.tmpdir(), `infragate-test-pglite-${migrationsDigest()}.tar`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    const client = await PGlite.create();
    await migrate(drizzle(client) as unknown as Db);
    const data = await client.dumpDataDir('none');
    await client.close();
    // Written aside and renamed, so a process reading it never sees half a file.
    const partial = `${file}.${process.pid}`;
    fs.writeFileSync(partial, Buffer.from(await data.arrayBuffer()));
    fs.renameSync(partial, file);
    return data;
  })();
  return migratedData;
}
let migratedData: Promise<Blob> | undefined;

/** What the migrated data depends on: each migration's name and text, and PGlite's version. */
function migrationsDigest(): string {
  const hash = crypto.createHash('sha256');
  const dir = fileURLToPath(new URL('../../migrations/', import.meta.url));
  for (const name of fs.readdirSync(dir).sort())
    hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  hash.update(
    fs.readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)),
  );
  return hash.digest('hex').slice(0, 16);
}

export interface TestGatewayOptions {
  /** Receives the gateway's log lines (set `logLevel` in the overrides, e.g. `trace`). */
  logStream?: NodeJS.WritableStream;
  /**
   * The database (and master key) of an earlier test gateway, for a restart with other settings;
   * closing the gateway leaves it open (the test closes it).
   */
  restartOf?: { database: Database; masterKey: Buffer };
}

/** A real gateway on a fresh database, driven through `inject()` (or `listen()` for real sockets). */
export async function startTestGateway(
  overrides: Partial<Config> = {},
  options: TestGatewayOptions = {},
): Promise<TestGateway> {
  const config = testConfig(overrides);
  const database = options.restartOf?.database ?? (await openTestDatabase());
  const answers = new AnswerLedger();
  const app = await buildServer({
    config,
    database,
    masterKey: options.restartOf?.masterKey ?? crypto.randomBytes(32),
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
    closeDatabase: !options.restartOf,
    onAnswer: answers.record,
  });
  await app.ready();
  const { db } = app.deps;

  let counter = 0;
  const tokenFor = async (userId: string) => {
    const issued = await issueToken(db, { userId, kind: 'api', name: 'test', expiresAt: null });
    return { userId, token: issued.token };
  };
  const createUserWithToken = async (email: string, groupId: string) => {
    const [user] = await db
      .insert(users)
      .values({ email, name: email.split('@')[0]!, groupId })
      .returning();
    return tokenFor(user!.id);
  };
  const [admins] = await db.select().from(groups);
  // A restart finds the admin of the first start.
  const [earlierAdmin] = await db.select().from(users).where(eq(users.email, 'admin@test'));
  const admin = earlierAdmin
    ? await tokenFor(earlierAdmin.id)
    : await createUserWithToken('admin@test', admins!.id);

  return {
    app,
    deps: app.deps,
    config,
    adminToken: admin.token,
    adminUserId: admin.userId,
    async call(method, url, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const token = options.token === undefined ? admin.token : options.token;
      if (token) headers.authorization = `Bearer ${token}`;
      let payload: string | Buffer | undefined;
      if (options.rawBody !== undefined) payload = options.rawBody;
      else if (options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await app.inject({
        method: method as 'GET',
        url,
        headers,
        ...(payload !== undefined ? { payload } : {}),
        ...(options.query
          ? { query: Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)])) }
          : {}),
      });
      let body: unknown;
      try {
        body = response.body ? JSON.parse(response.body) : undefined;
      } catch {
        body = undefined;
      }
      return { status: response.statusCode, body, headers: response.headers, text: response.body };
    },
    async tokenWithScopes(scopes) {
      counter += 1;
      const suffix = `${counter}-${crypto.randomBytes(3).toString('hex')}`;
      const [group] = await db
        .insert(groups)
        .values({ name: `group-${suffix}`, scopes })
        .returning();
      return (await createUserWithToken(`user-${suffix}@test`, group!.id)).token;
    },
    async listen() {
      return app.listen({ port: 0, host: '127.0.0.1' });
    },
    close: async () => {
      const undeclared = answers.undeclaredIn(app.swagger());
      await app.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
      if (undeclared.length > 0)
        throw new Error(
          `/openapi.json does not declare what the gateway answered:\n${undeclared.join('\n')}`,
        );
    },
  };
}
