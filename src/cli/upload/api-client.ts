import { request } from 'undici';

/** An error answer of the gateway: the HTTP status with the `{code, message, details}` envelope. */
export interface ApiError {
  status: number;
  code?: string;
  message?: string;
  details?: Record<string, unknown> | unknown[];
}

/** The gateway's HTTP API as the upload command calls it: bearer token, JSON or raw bodies. */
export class ApiClient {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  /** Answers the parsed JSON body; an error status throws an Error carrying `api` (see `apiError`). */
  async call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    route: string,
    options: { json?: unknown; body?: NodeJS.ReadableStream; length?: number } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    let body: string | NodeJS.ReadableStream | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.body) {
      headers['content-type'] = 'application/octet-stream';
      headers['content-length'] = String(options.length);
      body = options.body;
    }
    const response = await request(`${this.base}${route}`, {
      method,
      headers,
      body: body as string,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const text = await response.body.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // not JSON: reported below with the status
    }
    if (response.statusCode >= 400) {
      throw Object.assign(new Error(String(parsed.message ?? `HTTP ${response.statusCode}`)), {
        api: { status: response.statusCode, ...parsed } as ApiError,
      });
    }
    return parsed as T;
  }
}

/** The gateway's answer behind an error thrown by `ApiClient.call`; undefined for network errors. */
export function apiError(error: unknown): ApiError | undefined {
  return (error as { api?: ApiError }).api;
}

/** `details.reason` of an error answer (e.g. `UPLOAD_OFFSET_MISMATCH`). */
export function reasonOf(error: unknown): string | undefined {
  const details = apiError(error)?.details;
  return details && !Array.isArray(details) ? (details.reason as string | undefined) : undefined;
}

/** One line for the user: status, code, message and the details that explain them. */
export function describeApiError(error: unknown): string {
  const api = apiError(error);
  if (!api) return error instanceof Error ? error.message : String(error);
  const details = Array.isArray(api.details)
    ? api.details
        .map(
          (issue) =>
            `${(issue as { path: unknown[] }).path.join('.')} ${(issue as { message: string }).message}`,
        )
        .join('; ')
    : api.details
      ? [api.details.reason, api.details.explanation].filter(Boolean).join(': ') ||
        JSON.stringify(api.details)
      : '';
  return `${api.status} ${api.code ?? ''} ${api.message ?? ''}${details ? `: ${details}` : ''}`.trim();
}
