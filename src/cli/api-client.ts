import { CliError } from './cli-error.js';
import { readEvents, type StreamEvent } from './event-stream.js';

/** An error answer of the gateway: the HTTP status with the `{code, message, details}` envelope. */
export interface ApiError {
  status: number;
  code?: string;
  message?: string;
  details?: Record<string, unknown> | unknown[];
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export type QueryValues = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  /** Query parameters; undefined values are left out. Repeated keys: pass URLSearchParams. */
  query?: QueryValues | URLSearchParams;
  /** A JSON body (sets `content-type: application/json`). */
  json?: unknown;
  /** A raw body, streamed; `length` becomes its `content-length` when known. */
  body?: NodeJS.ReadableStream | Buffer | string;
  length?: number;
  /** Content type of a raw body (default `application/octet-stream`). */
  contentType?: string;
  headers?: Record<string, string>;
}

/** An answer as received: status, headers, the raw bytes and, when they are JSON, the parsed body. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: unknown;
}

/** An error answer, with the one-line description as its message. */
export class ApiRequestError extends CliError {
  constructor(readonly api: ApiError) {
    super(describeApiFailure(api));
  }
}

/** The gateway's HTTP API as the CLI calls it: bearer token, JSON or raw bodies. */
export class ApiClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** Sends one request and answers whatever came back, error statuses included. */
  async send(method: HttpMethod, route: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const response = await this.open(method, route, options);
    const bytes = Buffer.from(await response.body.arrayBuffer());
    return { status: response.statusCode, headers: response.headers, bytes, body: parseJson(bytes) };
  }

  /** Sends one request and answers as soon as the headers are in, the body still to be read. */
  private async open(method: HttpMethod, route: string, options: RequestOptions) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, ...options.headers };
    let body: string | Buffer | NodeJS.ReadableStream | undefined;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.body !== undefined) {
      headers['content-type'] ??= options.contentType ?? 'application/octet-stream';
      if (options.length !== undefined) headers['content-length'] = String(options.length);
      body = options.body;
    }
    // Loaded here, not at the top: `infragate serve` shares this program and never sends a request.
    const { request } = await import('undici');
    try {
      return await request(this.url(route, options.query), {
        method,
        headers,
        body: body as string,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
    } catch (error) {
      throw new CliError(`cannot reach ${this.baseUrl}: ${(error as Error).message}`);
    }
  }

  /**
   * Asks for Server-Sent Events (`Accept: text/event-stream`) and yields each as it arrives; an error
   * status throws an ApiRequestError before the first, an `error` event a CliError with its message.
   * Leaving the loop closes the connection.
   */
  async *events(
    method: HttpMethod,
    route: string,
    options: RequestOptions = {},
  ): AsyncGenerator<StreamEvent> {
    yield* await this.openEvents(method, route, options);
  }

  /**
   * Like `events`, but answers once the gateway accepted the stream (its headers are in), so the
   * caller can do something else knowing the stream already runs (e.g. read what came before it).
   */
  async openEvents(
    method: HttpMethod,
    route: string,
    options: RequestOptions = {},
  ): Promise<AsyncGenerator<StreamEvent>> {
    const { statusCode, headers, body } = await this.open(method, route, {
      ...options,
      headers: { accept: 'text/event-stream', ...options.headers },
    });
    if (statusCode >= 400 || !String(headers['content-type'] ?? '').startsWith('text/event-stream')) {
      const bytes = Buffer.from(await body.arrayBuffer());
      const response = { status: statusCode, headers, bytes, body: parseJson(bytes) };
      if (statusCode >= 400) throw new ApiRequestError(errorOf(response));
      throw new CliError(
        `expected an event stream from ${route}, got ${headers['content-type'] ?? 'no content type'}`,
      );
    }
    return (async function* () {
      try {
        for await (const event of readEvents(body)) {
          // A failure after the stream began: the error envelope, with no status of its own.
          if (event.event === 'error')
            throw new CliError(describeApiFailure(event.data as Omit<ApiError, 'status'>));
          yield event;
        }
      } finally {
        body.destroy();
      }
    })();
  }

  /** Like `send`, but an error status throws an ApiRequestError (see `apiError`). */
  async fetch(method: HttpMethod, route: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const response = await this.send(method, route, options);
    if (response.status >= 400) throw new ApiRequestError(errorOf(response));
    return response;
  }

  /** Answers the parsed JSON body; an error status throws an ApiRequestError (see `apiError`). */
  async call<T>(method: HttpMethod, route: string, options: RequestOptions = {}): Promise<T> {
    return ((await this.fetch(method, route, options)).body ?? {}) as T;
  }

  private url(route: string, query: RequestOptions['query']): string {
    const params =
      query instanceof URLSearchParams
        ? query
        : new URLSearchParams(
            Object.entries(query ?? {})
              .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
              .map(([key, value]): [string, string] => [key, String(value)]),
          );
    const search = params.toString();
    if (!search) return `${this.baseUrl}${route}`;
    return `${this.baseUrl}${route}${route.includes('?') ? '&' : '?'}${search}`;
  }
}

function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The error envelope of an error answer (a status alone when the body is not the envelope). */
export function errorOf(response: ApiResponse): ApiError {
  const body = response.body;
  const envelope = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
  return { status: response.status, ...(envelope as Omit<ApiError, 'status'>) };
}

/** The gateway's answer behind an error thrown by `ApiClient.call`; undefined for other errors. */
export function apiError(error: unknown): ApiError | undefined {
  return error instanceof ApiRequestError ? error.api : undefined;
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
  return describeApiFailure(api);
}

/** `REASON: explanation (key=value, …)` from an error's details object. */
function describeDetails(details: Record<string, unknown>): string {
  const { reason, explanation, ...rest } = details;
  const extra = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  return [[reason, explanation].filter(Boolean).join(': '), extra && `(${extra})`].filter(Boolean).join(' ');
}

function describeApiFailure(api: Omit<ApiError, 'status'> & { status?: number }): string {
  const details = Array.isArray(api.details)
    ? api.details
        .map(
          (issue) =>
            `${((issue as { path?: unknown[] }).path ?? []).join('.') || 'body'} ${(issue as { message: string }).message}`,
        )
        .join('; ')
    : api.details
      ? describeDetails(api.details)
      : '';
  const message = api.message ?? (api.code ? '' : `HTTP ${api.status}`);
  return `${api.status ?? ''} ${api.code ?? ''} ${message}${details ? `: ${details}` : ''}`
    .replace(/\s+/g, ' ')
    .trim();
}
