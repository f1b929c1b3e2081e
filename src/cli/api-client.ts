import type {
  AnswerOf,
  BodyIsOptional,
  BodyOf,
  EventDataOf,
  Method,
  OperationAt,
  PathParamsOf,
  QueryOf,
  Route as RouteOf,
  TakesRawBody,
} from '../core/openapi/api-operations.js';
import { CliError } from './cli-error.js';
import { readEvents } from './event-stream.js';
import type { FieldPath, FlagValues } from './field-paths.js';

/** An error answer of the gateway: the HTTP status with the `{code, message, details}` envelope. */
export interface ApiError {
  status: number;
  code?: string;
  message?: string;
  details?: Record<string, unknown> | unknown[];
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** The methods of the API's operations. */
export type Verb = Uppercase<Method>;

/** The route templates with an operation for `method` (`/api/admin/users/{id}` for `DELETE`). */
export type Route<M extends Verb> = RouteOf<Lowercase<M>>;

type Operation<Path, M extends Verb> = OperationAt<Path, Lowercase<M>>;

/** A body sent as it is, streamed; `length` becomes its `content-length` when known. */
interface RawBody {
  body: NodeJS.ReadableStream | Buffer | string;
  length?: number;
  /** Its content type (default `application/octet-stream`). */
  contentType?: string;
}

/** What any request may carry; the typed calls narrow it to what their operation takes. */
export interface RequestOptions extends Partial<RawBody> {
  /** The values of the route's `{placeholders}`, each URL-encoded. */
  path?: Record<string, string>;
  /** Query parameters; undefined values are left out. Repeated keys: pass URLSearchParams. */
  query?: Record<string, unknown> | URLSearchParams;
  /** A JSON body (sets `content-type: application/json`). */
  json?: unknown;
  headers?: Record<string, string>;
}

/** A JSON body as written, or gathered from flags that set only the operation's fields. */
type JsonInput<Body> = Body | FlagValues<FieldPath<Body>>;

type PathOption<Op> = [PathParamsOf<Op>] extends [never] ? { path?: never } : { path: PathParamsOf<Op> };
type QueryOption<Op> = [QueryOf<Op>] extends [never]
  ? { query?: never }
  : { query?: QueryOf<Op> | FlagValues<keyof QueryOf<Op> & string> };
type JsonOption<Op> = [BodyOf<Op>] extends [never] ? never : { json: JsonInput<BodyOf<Op>>; body?: never };
type RawOption<Op> = TakesRawBody<Op> extends true ? RawBody & { json?: never } : never;
type NoBody<Op> = BodyIsOptional<Op> extends true ? { json?: never; body?: never } : never;
type BodyOption<Op> = JsonOption<Op> | RawOption<Op> | NoBody<Op>;

/** What a call of `method route` takes: its placeholders, query and body, typed by the API document. */
type CallOptions<Path, M extends Verb> = PathOption<Operation<Path, M>> &
  QueryOption<Operation<Path, M>> &
  BodyOption<Operation<Path, M>> & { headers?: Record<string, string> };

/** The options argument, left out only when nothing in it is required. */
type OptionsArgument<Options> = object extends Options ? [options?: Options] : [options: Options];

/** The JSON answer of a call of `method route`. */
export type CallAnswer<Path, M extends Verb> = AnswerOf<Operation<Path, M>>;

/**
 * One Server-Sent Event of a typed stream: the operation's main event (`main`, e.g. `log`), whose
 * data the API document describes (unknown where it describes no stream), or another one (`end`,
 * `skipped`, …).
 */
type TypedEvent<Data> =
  | { event: string; main: true; data: Data }
  | { event: string; main: false; data: unknown };

type StreamData<Op> = [EventDataOf<Op>] extends [never] ? unknown : EventDataOf<Op>;

/** The options of a stream: those of its call, and the name of its main event. */
type StreamOptions<Path, M extends Verb> = CallOptions<Path, M> & { main: string };

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

/** `/api/pages/{projectId}/domains` with `{projectId: 'x'}` → `/api/pages/x/domains`, each value URL-encoded. */
function fillRoute(route: string, params: Record<string, string> = {}): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${route}`);
    return encodeURIComponent(value);
  });
}

/**
 * The gateway's HTTP API as the CLI calls it: bearer token, JSON or raw bodies, Server-Sent Events.
 * Calls name an operation of the API document by method and route template (`GET
 * /api/admin/users/{id}`), so the build checks their placeholders, query, body and answer.
 */
export class ApiClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /**
   * Calls one operation and answers its JSON body, as the API document types it (the gateway's
   * answers follow its document); an error status throws an ApiRequestError (see `apiError`).
   */
  call<M extends Verb, Path extends Route<M>>(
    method: M,
    route: Path,
    ...options: OptionsArgument<CallOptions<Path, M>>
  ): Promise<CallAnswer<Path, M>>;
  async call(method: Verb, route: string, options?: RequestOptions): Promise<unknown> {
    return this.request(method, route, options);
  }

  /**
   * `call` for a route and options put together at run time: the shared verbs of resource.ts, whose
   * routes and fields are checked where each resource is declared.
   */
  async request(method: Verb, route: string, options: RequestOptions = {}): Promise<unknown> {
    return (await this.fetch(method, fillRoute(route, options.path), options)).body ?? {};
  }

  /** The bytes of a download (a certificate's chain, a file of a container). */
  download<Path extends Route<'GET'>>(
    route: Path,
    ...options: OptionsArgument<CallOptions<Path, 'GET'>>
  ): Promise<Buffer>;
  async download(route: string, options: RequestOptions = {}): Promise<Buffer> {
    return (await this.fetch('GET', fillRoute(route, options.path), options)).bytes;
  }

  /** Sends one request to `url` (a path, as typed) and answers whatever came back, error statuses included. */
  async send(method: HttpMethod, url: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const response = await this.open(method, url, options);
    const bytes = Buffer.from(await response.body.arrayBuffer());
    return { status: response.statusCode, headers: response.headers, bytes, body: parseJson(bytes) };
  }

  /** Like `send`, but an error status throws an ApiRequestError. */
  private async fetch(method: HttpMethod, url: string, options: RequestOptions): Promise<ApiResponse> {
    const response = await this.send(method, url, options);
    if (response.status >= 400) throw new ApiRequestError(errorOf(response));
    return response;
  }

  /** Sends one request and answers as soon as the headers are in, the body still to be read. */
  private async open(method: HttpMethod, url: string, options: RequestOptions) {
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
      return await request(this.url(url, options.query), {
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
  events<M extends Verb, Path extends Route<M>>(
    method: M,
    route: Path,
    options: StreamOptions<Path, M>,
  ): AsyncGenerator<TypedEvent<StreamData<Operation<Path, M>>>>;
  async *events(
    method: Verb,
    route: string,
    options: RequestOptions & { main: string },
  ): AsyncGenerator<TypedEvent<unknown>> {
    yield* await this.stream(method, route, options);
  }

  /**
   * Like `events`, but answers once the gateway accepted the stream (its headers are in), so the
   * caller can do something else knowing the stream already runs (e.g. read what came before it).
   */
  openEvents<M extends Verb, Path extends Route<M>>(
    method: M,
    route: Path,
    options: StreamOptions<Path, M>,
  ): Promise<AsyncGenerator<TypedEvent<StreamData<Operation<Path, M>>>>>;
  async openEvents(
    method: Verb,
    route: string,
    options: RequestOptions & { main: string },
  ): Promise<AsyncGenerator<TypedEvent<unknown>>> {
    return this.stream(method, route, options);
  }

  private async stream(
    method: Verb,
    route: string,
    options: RequestOptions & { main: string },
  ): Promise<AsyncGenerator<TypedEvent<unknown>>> {
    const url = fillRoute(route, options.path);
    const { statusCode, headers, body } = await this.open(method, url, {
      ...options,
      headers: { accept: 'text/event-stream', ...options.headers },
    });
    if (statusCode >= 400 || !String(headers['content-type'] ?? '').startsWith('text/event-stream')) {
      const bytes = Buffer.from(await body.arrayBuffer());
      const response = { status: statusCode, headers, bytes, body: parseJson(bytes) };
      if (statusCode >= 400) throw new ApiRequestError(errorOf(response));
      throw new CliError(
        `expected an event stream from ${url}, got ${headers['content-type'] ?? 'no content type'}`,
      );
    }
    return (async function* () {
      try {
        for await (const { event, data } of readEvents(body)) {
          // A failure after the stream began: the error envelope, with no status of its own.
          if (event === 'error') throw new CliError(describeApiFailure(envelopeOf(data)));
          yield event === options.main ? { event, main: true, data } : { event, main: false, data };
        }
      } finally {
        body.destroy();
      }
    })();
  }

  private url(path: string, query: RequestOptions['query']): string {
    const params =
      query instanceof URLSearchParams
        ? query
        : new URLSearchParams(
            Object.entries(query ?? {}).flatMap(([key, value]): [string, string][] =>
              value === undefined ? [] : [[key, String(value)]],
            ),
          );
    const search = params.toString();
    if (!search) return `${this.baseUrl}${path}`;
    return `${this.baseUrl}${path}${path.includes('?') ? '&' : '?'}${search}`;
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

/** The `{code, message, details}` envelope of a refusal (nothing when the body is not one). */
function envelopeOf(body: unknown): Omit<ApiError, 'status'> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Omit<ApiError, 'status'>) : {};
}

/** The error envelope of an error answer (a status alone when the body is not the envelope). */
export function errorOf(response: ApiResponse): ApiError {
  return { status: response.status, ...envelopeOf(response.body) };
}

/** The gateway's answer behind an error thrown by `ApiClient.call`; undefined for other errors. */
export function apiError(error: unknown): ApiError | undefined {
  return error instanceof ApiRequestError ? error.api : undefined;
}

/** `details.reason` of an error answer (e.g. `UPLOAD_OFFSET_MISMATCH`). */
export function reasonOf(error: unknown): string | undefined {
  const details = apiError(error)?.details;
  const reason = details && !Array.isArray(details) ? details.reason : undefined;
  return typeof reason === 'string' ? reason : undefined;
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
