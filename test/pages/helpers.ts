import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { loadConfig, type PagesConfig } from '../../src/config.js';
import { queryRows } from '../../src/db/raw.js';
import type { CallResult, TestGateway } from '../support/gateway.js';

let counter = 0;

/** A fresh unique slug for a test project. */
export function uniqueSlug(prefix = 'site'): string {
  counter += 1;
  return `${prefix}-${counter}-${crypto.randomBytes(3).toString('hex')}`;
}

export async function createProject(
  gateway: TestGateway,
  fields: { slug?: string; name?: string; spaFallback?: boolean } = {},
) {
  const slug = fields.slug ?? uniqueSlug();
  const result = await gateway.call('POST', '/api/pages', {
    body: {
      name: fields.name ?? `Site ${slug}`,
      slug,
      ...(fields.spaFallback !== undefined ? { spaFallback: fields.spaFallback } : {}),
    },
  });
  expect(result.status).toBe(201);
  return result.body.data as { id: string; slug: string; name: string };
}

export function deploy(
  gateway: TestGateway,
  projectId: string,
  archive: Buffer,
  options: {
    contentType?: string;
    query?: Record<string, string | number | boolean>;
    token?: string | null;
  } = {},
): Promise<CallResult> {
  return gateway.call('POST', `/api/pages/${projectId}/deployments`, {
    rawBody: archive,
    headers: { 'content-type': options.contentType ?? 'application/gzip' },
    ...(options.query ? { query: options.query } : {}),
    ...(options.token !== undefined ? { token: options.token } : {}),
  });
}

/** Deploys and answers the new deployment's id, failing the test on anything but 201. */
export async function deployOk(
  gateway: TestGateway,
  projectId: string,
  archive: Buffer,
  query?: Record<string, string | number | boolean>,
): Promise<string> {
  const result = await deploy(gateway, projectId, archive, query ? { query } : {});
  expect(result.status, result.text).toBe(201);
  return result.body.data.id as string;
}

/** The audit actions recorded for a target, in the order they were recorded (sequencing follows shortly after). */
export async function auditActions(gateway: TestGateway, targetId: string): Promise<string[]> {
  const rows = await queryRows<{ action: string }>(
    gateway.deps.db,
    sql`select action from audit_events where target_id = ${targetId} order by entry`,
  );
  return rows.map((row) => row.action);
}

/** The pages configuration with a few settings changed (for `startTestGateway({pages})`). */
export function pagesConfig(changes: Partial<PagesConfig>): PagesConfig {
  return { ...loadConfig({}).pages, ...changes };
}
