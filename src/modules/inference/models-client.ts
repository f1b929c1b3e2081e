import type { EgressGuard } from '../../core/egress-guard.js';
import type { ModelInfo } from './schemas.js';

export interface ModelListing {
  httpStatus: number;
  responseMs: number;
  models: ModelInfo[];
  /** Why the listing failed (a non-2xx answer or a body that holds no model list). */
  error: string | null;
}

const MAX_BODY_CHARS = 2_000_000;
const MAX_MODELS = 1000;

/** `https://h/v1` + `/models` → `https://h/v1/models` (the base path is kept). */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

function modelOf(item: unknown): ModelInfo | undefined {
  if (typeof item === 'string') return { id: item, name: null };
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as Record<string, unknown>;
  const id = [record.id, record.name, record.model].find((value) => typeof value === 'string') as
    | string
    | undefined;
  if (!id) return undefined;
  const label = [record.display_name, record.displayName].find((value) => typeof value === 'string');
  return { id, name: (label as string | undefined) ?? null };
}

/** Reads the usual shapes of a model list: `{data: [...]}`, `{models: [...]}` or a bare array. */
function parseModels(body: unknown): ModelInfo[] | undefined {
  const list = Array.isArray(body)
    ? body
    : typeof body === 'object' && body !== null
      ? ((body as Record<string, unknown>).data ?? (body as Record<string, unknown>).models)
      : undefined;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((item) => modelOf(item) ?? []).slice(0, MAX_MODELS);
}

/** Lists a provider's models once, through the egress guard. */
export async function listModels(
  egress: EgressGuard,
  url: string,
  headers: Record<string, string>,
): Promise<ModelListing> {
  const started = performance.now();
  const response = await egress.fetch(url, {
    method: 'GET',
    headers: { accept: 'application/json', ...headers },
    timeoutMs: 15_000,
  });
  const text = (await response.text()).slice(0, MAX_BODY_CHARS);
  const responseMs = Math.round(performance.now() - started);
  if (response.status < 200 || response.status >= 300) {
    let detail = '';
    try {
      const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
      const error = parsed.error;
      const message =
        typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error;
      detail =
        typeof message === 'string' ? message : typeof parsed.message === 'string' ? parsed.message : '';
    } catch {}
    return {
      httpStatus: response.status,
      responseMs,
      models: [],
      error: `the provider answered HTTP ${response.status}${detail ? `: ${detail.slice(0, 300)}` : ''}`,
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { httpStatus: response.status, responseMs, models: [], error: 'the answer is not JSON' };
  }
  const models = parseModels(body);
  if (!models)
    return { httpStatus: response.status, responseMs, models: [], error: 'the answer holds no model list' };
  return { httpStatus: response.status, responseMs, models, error: null };
}
