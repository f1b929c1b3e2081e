import { eq } from 'drizzle-orm';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import { notFound } from '../../core/errors.js';
import type { DbOrTx } from '../../db/client.js';
import { inferenceConnections } from '../../db/schema/index.js';
import type { ProviderCatalog } from './provider-catalog.js';
import type { Connection } from './schemas.js';

/** How connections are read, written and answered, for every service that touches them. */

export type ConnectionRow = typeof inferenceConnections.$inferSelect;

export async function findConnection(db: DbOrTx, id: string): Promise<ConnectionRow> {
  const [row] = await db.select().from(inferenceConnections).where(eq(inferenceConnections.id, id));
  if (!row) throw notFound({ connectionId: id });
  return row;
}

/** Inserts a connection; its name is unique (409 CONNECTION_NAME_TAKEN). */
export async function insertConnection(
  tx: DbOrTx,
  values: typeof inferenceConnections.$inferInsert,
): Promise<ConnectionRow> {
  const [row] = await conflictOnDuplicate(
    tx.insert(inferenceConnections).values(values).returning(),
    'CONNECTION_NAME_TAKEN',
    { name: values.name },
  );
  return row!;
}

/** The connection as answered: which credentials it holds, never the credentials. */
export function connectionView(row: ConnectionRow, catalog: ProviderCatalog): Connection {
  const entry = catalog.find(row.providerId);
  return {
    id: row.id,
    providerId: row.providerId,
    providerLabel: entry?.label ?? null,
    name: row.name,
    authType: row.authType,
    baseUrl: row.baseUrl,
    effectiveBaseUrl: row.baseUrl ?? entry?.baseUrl ?? null,
    hasApiKey: row.apiKeySealed !== null,
    hasAccessToken: row.accessTokenSealed !== null,
    hasRefreshToken: row.refreshTokenSealed !== null,
    accessTokenExpiresAt: row.accessTokenExpiresAt,
    tokenScope: row.tokenScope,
    lastRefreshedAt: row.lastRefreshedAt,
    lastRefreshError: row.lastRefreshError,
    lastTestedAt: row.lastTestedAt,
    lastTestOk: row.lastTestOk,
    lastTestError: row.lastTestError,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
