import { eq } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { unprocessable } from '../../core/errors.js';
import { outboundFailure } from '../../core/outbound-errors.js';
import { inferenceConnections } from '../../db/schema/index.js';
import { findConnection } from './connection-rows.js';
import { credentialHeaders } from './connection-secrets.js';
import { joinUrl, listModels } from './models-client.js';
import type { ProviderCatalog } from './provider-catalog.js';
import type { ConnectionTestResult } from './schemas.js';
import type { TokenRefresher } from './token-refresh.js';

/** The text with every credential (and its bare token after a `Bearer ` prefix) replaced. */
function scrub(text: string | null, credentials: string[]): string | null {
  if (text === null) return null;
  let clean = text;
  for (const credential of credentials.flatMap((value) => [value, value.replace(/^Bearer /, '')])) {
    if (credential.length >= 4) clean = clean.split(credential).join('[redacted]');
  }
  return clean;
}

/** Tests a connection by listing its provider's models with its credentials, and records the outcome. */
export class ConnectionTester {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit' | 'secrets' | 'egress'> & {
      catalog: ProviderCatalog;
      tokens: TokenRefresher;
    },
  ) {}

  async test(actor: AuditActor, id: string): Promise<ConnectionTestResult> {
    const { db, audit, secrets, egress } = this.deps;
    let row = await findConnection(db, id);
    const entry = this.deps.catalog.find(row.providerId);
    if (!entry)
      throw unprocessable(
        'PROVIDER_NOT_IN_CATALOG',
        `provider ${row.providerId} is no longer in the catalog; restore it or delete this connection`,
      );
    if (!entry.modelsPath)
      throw unprocessable('MODELS_NOT_SUPPORTED', `the catalog names no modelsPath for provider ${entry.id}`);
    if (row.authType === 'oauth') row = await this.deps.tokens.freshTokens(actor, row, entry);
    const url = joinUrl(row.baseUrl ?? entry.baseUrl, entry.modelsPath);
    const credentials = credentialHeaders(secrets, row, entry);
    const headers = { ...(entry.extraHeaders ?? {}), ...credentials };
    const testedAt = new Date();
    let result: ConnectionTestResult;
    try {
      const listing = await listModels(egress, url, headers);
      result = {
        ok: listing.error === null,
        url,
        httpStatus: listing.httpStatus,
        responseMs: listing.responseMs,
        modelCount: listing.models.length,
        models: listing.models,
        // Some providers quote the credential they refused; it must not reach the answer or the audit trail.
        error: scrub(listing.error, Object.values(credentials)),
        testedAt,
      };
    } catch (error) {
      const failure = outboundFailure(error, `listing models at ${url}`);
      const details = failure.details as { reason?: string; explanation?: string };
      if (details.reason === 'EGRESS_DENIED') throw failure;
      result = {
        ok: false,
        url,
        httpStatus: null,
        responseMs: null,
        modelCount: 0,
        models: [],
        error: details.explanation ?? 'the provider could not be reached',
        testedAt,
      };
    }
    await db.transaction(async (tx) => {
      await tx
        .update(inferenceConnections)
        .set({ lastTestedAt: testedAt, lastTestOk: result.ok, lastTestError: result.error })
        .where(eq(inferenceConnections.id, id));
      await audit.record(tx, actor, {
        action: 'inference.connection.tested',
        targetType: 'inference_connection',
        targetId: id,
        outcome: result.ok ? 'success' : 'failure',
        metadata: { url, httpStatus: result.httpStatus, modelCount: result.modelCount, error: result.error },
      });
    });
    return result;
  }
}
