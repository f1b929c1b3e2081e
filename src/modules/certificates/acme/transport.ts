import type dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import type { Agent } from 'undici';
import type { Deps } from '../../../core/deps.js';
import { EgressDeniedError, type EgressGuard } from '../../../core/egress-guard.js';

/** The response shape acme-client reads (that of axios, which it uses by default). */
export interface AcmeHttpResponse {
  status: number;
  headers: Record<string, string>;
  data: unknown;
}

const TIMEOUT_MS = 30_000;
const USER_AGENT = 'infragate-acme';

/**
 * HTTPS for the ACME client, through the egress guard: every host name is resolved and checked by
 * `deps.egress` and the connection goes to the checked address; only https is allowed; redirects are
 * not followed (RFC 8555 needs none). Extra CAs (INFRAGATE_ACME_CA_FILE, e.g. a private or test CA)
 * are trusted here only, beside the system roots; TLS verification is never turned off.
 */
export class AcmeTransport {
  /** undici is loaded on the first ACME request, not at start-up (most gateways never order). */
  private client: Promise<{ fetch: typeof import('undici').fetch; agent: Agent }> | undefined;

  private readonly egress: EgressGuard;

  private readonly trustedCaPem: string | undefined;

  constructor({ egress, trustedCaPem }: Pick<Deps, 'egress'> & { trustedCaPem?: string }) {
    this.egress = egress;
    this.trustedCaPem = trustedCaPem;
  }

  private connect() {
    const trustedCaPem = this.trustedCaPem;
    this.client ??= import('undici').then(({ Agent, fetch }) => ({
      fetch,
      agent: new Agent({
        connect: {
          ...(trustedCaPem ? { ca: [...tls.rootCertificates, trustedCaPem] } : {}),
          lookup: (hostname, options, callback) => this.lookup(hostname, options, callback),
        },
      }),
    }));
    return this.client;
  }

  async request(
    url: string,
    method: string,
    options: { data?: unknown; headers?: Record<string, string> } = {},
  ): Promise<AcmeHttpResponse> {
    const target = new URL(url);
    if (target.protocol !== 'https:') {
      throw new EgressDeniedError(target.host, '-', 'ACME directories and their resources must be https');
    }
    // IP literals never reach the lookup hook, so the guard checks them here.
    const bare = target.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(bare)) await this.egress.resolve(bare);
    const { fetch, agent } = await this.connect();
    const response = await fetch(target, {
      method: method.toUpperCase(),
      // RFC 8555 section 6.2: signed requests are JOSE; a client names itself in User-Agent.
      headers: {
        ...options.headers,
        'user-agent': USER_AGENT,
        ...(options.data !== undefined ? { 'content-type': 'application/jose+json' } : {}),
      },
      ...(options.data !== undefined ? { body: JSON.stringify(options.data) } : {}),
      dispatcher: agent,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const text = await response.text();
    const json = /json/.test(headers['content-type'] ?? '');
    return { status: response.status, headers, data: json && text ? JSON.parse(text) : text };
  }

  async close(): Promise<void> {
    if (this.client) await (await this.client).agent.close();
  }

  private lookup(
    hostname: string,
    options: dns.LookupOptions,
    callback: (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void,
  ): void {
    this.egress.resolve(hostname).then(
      (address) => {
        const family = net.isIPv6(address) ? 6 : 4;
        if (options.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
      (error: Error) => callback(error, ''),
    );
  }
}
