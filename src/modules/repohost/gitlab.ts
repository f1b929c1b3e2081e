import { type EgressGuard, findEgressDenial } from '../../core/egress-guard.js';
import { type AppError, unprocessable } from '../../core/errors.js';

/**
 * The GitLab REST API v4 as the gateway uses it, through the egress guard. This adapter is the only code
 * that talks to the repository host; every failure leaves it as a 422 with a reason a person can act on.
 */

export interface GitlabAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

export interface GitlabListing<T> {
  items: T[];
  /** More items existed than the cap allowed to read. */
  truncated: boolean;
  /** The host refused the listing (403/404): the token may not list these. */
  refused: boolean;
}

const TLS_CODES =
  /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_|ERR_SSL_|EPROTO|HOSTNAME_MISMATCH)/;
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if (current instanceof AggregateError)
      for (const inner of current.errors) codes.push(...errorCodes(inner));
  }
  return codes;
}

/** Maps a failed connection to the 422 the API answers. */
export function connectionFailure(error: unknown, host: string, timeoutMs: number): AppError {
  const denial = findEgressDenial(error);
  if (denial) {
    return unprocessable(
      'EGRESS_DENIED',
      `egress to ${denial.host} (${denial.address}) refused: ${denial.rule}`,
      {
        rule: denial.rule,
        host: denial.host,
        address: denial.address,
      },
    );
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return unprocessable(
      'HOST_TIMEOUT',
      `the repository host ${host} did not answer within ${timeoutMs} ms`,
      {
        timeoutMs,
      },
    );
  }
  const codes = errorCodes(error);
  const tls = codes.find((code) => TLS_CODES.test(code));
  if (tls) {
    return unprocessable('TLS_ERROR', `the TLS connection to ${host} failed: ${tls}`, { cause: tls });
  }
  const unreachable = codes.find((code) => UNREACHABLE_CODES.has(code));
  return unprocessable(
    'HOST_UNREACHABLE',
    `the repository host ${host} could not be reached${unreachable ? `: ${unreachable}` : ''}`,
    { cause: unreachable ?? codes[0] ?? 'unknown' },
  );
}

/** The API root of a GitLab instance: `https://host[/relative-root]/api/v4`. */
function apiRoot(baseUrl: string): URL {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
  return new URL(`${url.origin}${path}/api/v4/`);
}

/** A project as GitLab answers it (the fields the gateway reads). */
export interface GitlabProject {
  id: number;
  name: string;
  path_with_namespace: string;
  web_url?: string;
  permissions?: {
    project_access?: { access_level?: number } | null;
    group_access?: { access_level?: number } | null;
  };
}

/** A group as GitLab answers it (the fields the gateway reads). */
export interface GitlabGroup {
  id: number;
  name: string;
  full_path: string;
  web_url?: string;
}

/** The calls of one test with one token; they share one deadline of `timeoutMs`. */
export class GitlabClient {
  private readonly egress: EgressGuard;
  private readonly root: URL;
  private readonly token: string;
  private readonly timeoutMs: number;
  private readonly deadline: number;

  constructor(options: { egress: EgressGuard; baseUrl: string; token: string; timeoutMs: number }) {
    this.egress = options.egress;
    this.root = apiRoot(options.baseUrl);
    this.token = options.token;
    this.timeoutMs = options.timeoutMs;
    this.deadline = Date.now() + options.timeoutMs;
  }

  get host(): string {
    return this.root.host;
  }

  /** One GET; the whole test shares one deadline. Non-JSON answers are `body: undefined`. */
  async get(path: string, query: Record<string, string> = {}): Promise<GitlabAnswer> {
    const url = new URL(path, this.root);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const remaining = this.deadline - Date.now();
    const timeout = () =>
      connectionFailure(
        Object.assign(new Error('timeout'), { name: 'TimeoutError' }),
        this.host,
        this.timeoutMs,
      );
    if (remaining <= 0) throw timeout();
    try {
      const response = await this.egress.fetch(url, {
        timeoutMs: remaining,
        headers: { 'private-token': this.token, accept: 'application/json' },
      });
      const text = await response.text();
      let body: unknown;
      try {
        body = (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      return { status: response.status, body, headers: response.headers };
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') throw timeout();
      throw connectionFailure(error, this.host, this.timeoutMs);
    }
  }

  /** Follows `X-Next-Page` until the last page or `maxItems`. */
  async list<T>(path: string, query: Record<string, string>, maxItems: number): Promise<GitlabListing<T>> {
    const items: T[] = [];
    let page = '1';
    for (;;) {
      const answer = await this.get(path, { ...query, per_page: '100', page });
      if (answer.status === 401) throw tokenRejected(this.host);
      if (answer.status === 403 || answer.status === 404)
        return { items: [], truncated: false, refused: true };
      if (answer.status !== 200 || !Array.isArray(answer.body))
        throw notGitlab(this.host, path, answer.status);
      items.push(...(answer.body as T[]));
      const next = answer.headers.get('x-next-page') ?? '';
      if (items.length >= maxItems) {
        return {
          items: items.slice(0, maxItems),
          truncated: next !== '' || items.length > maxItems,
          refused: false,
        };
      }
      if (next === '' || !/^\d+$/.test(next) || next === page)
        return { items, truncated: false, refused: false };
      page = next;
    }
  }
}

export const tokenRejected = (host: string) =>
  unprocessable(
    'TOKEN_REJECTED',
    `token rejected: ${host} answered 401 Unauthorized (unknown, revoked or expired token)`,
  );

export const notGitlab = (host: string, path: string, status: number) =>
  status >= 500
    ? unprocessable('HOST_ERROR', `the repository host ${host} failed with HTTP ${status} on ${path}`, {
        status,
      })
    : unprocessable(
        'NOT_GITLAB',
        `${host} does not answer like a GitLab API v4 (HTTP ${status} on ${path}); check the base URL`,
        { status },
      );
