import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import type { Deps } from '../../core/deps.js';
import { EgressDeniedError } from '../../core/egress-guard.js';

/** The outcome of one ownership check: proven, or why not (in words an operator can act on). */
export type CheckResult = { ok: true } | { ok: false; reason: string };

/** The TXT record that proves a domain: `_infragate-challenge.<hostname>`. */
export const TXT_PREFIX = '_infragate-challenge.';
/** Where the HTTP proof is asked for on the domain. */
export const HTTP_PROOF_PATH = '/.well-known/infragate-domain/';

const DNS_TIMEOUT_MS = 3000;
const HTTP_TIMEOUT_MS = 5000;
/** More than any proof is long; a larger answer is not one. */
const MAX_PROOF_BYTES = 1024;

const DNS_ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * Asks the world whether a domain is proven: a DNS TXT record (through the configured resolvers, or
 * the system's) or an HTTP GET of the proof URL on port 80 of the domain's address. The address is
 * checked against the egress policy and connected to directly (no second lookup), so the check cannot
 * be turned towards addresses the gateway must not reach.
 */
export class DomainOwnershipChecks {
  private readonly egress: Deps['egress'];
  private readonly servers: string[];
  private readonly httpPort: number;

  constructor(deps: Pick<Deps, 'egress' | 'config'>) {
    this.egress = deps.egress;
    this.servers = deps.config.pages.dnsServers;
    this.httpPort = deps.config.pages.verifyHttpPort;
  }

  async txt(hostname: string, expected: string): Promise<CheckResult> {
    const name = `${TXT_PREFIX}${hostname}`;
    try {
      const records = (await this.resolver().resolveTxt(name)).map((chunks) => chunks.join(''));
      if (records.includes(expected)) return { ok: true };
      return { ok: false, reason: `the TXT records at ${name} do not include the verification token` };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'ERROR';
      if (DNS_ABSENT.has(code)) return { ok: false, reason: `no TXT record at ${name}` };
      return { ok: false, reason: `the DNS lookup of ${name} failed (${code})` };
    }
  }

  async http(hostname: string, token: string, expectedBody: string): Promise<CheckResult> {
    const url = `http://${hostname}${HTTP_PROOF_PATH}${token}`;
    let address: string;
    try {
      address = await this.address(hostname);
    } catch (error) {
      if (error instanceof EgressDeniedError) return { ok: false, reason: `${url}: ${error.message}` };
      const code = (error as NodeJS.ErrnoException).code ?? 'ERROR';
      return { ok: false, reason: `${url}: the address of ${hostname} could not be resolved (${code})` };
    }
    try {
      const { status, body } = await this.get(address, hostname, `${HTTP_PROOF_PATH}${token}`);
      if (status !== 200) return { ok: false, reason: `${url} answered HTTP ${status}` };
      if (body.trim() !== expectedBody)
        return { ok: false, reason: `${url} did not answer the expected proof` };
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: `${url} could not be fetched (${(error as Error).message})` };
    }
  }

  private resolver(): dns.promises.Resolver {
    const resolver = new dns.promises.Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
    if (this.servers.length > 0) resolver.setServers(this.servers);
    return resolver;
  }

  /** The first address of the host, every one of them allowed by the egress policy. */
  private async address(hostname: string): Promise<string> {
    if (this.servers.length === 0) return this.egress.resolve(hostname);
    const resolver = this.resolver();
    const addresses = [
      ...(await resolver.resolve4(hostname).catch(() => [])),
      ...(await resolver.resolve6(hostname).catch(() => [])),
    ];
    if (addresses.length === 0) throw Object.assign(new Error('no address'), { code: 'ENOTFOUND' });
    for (const address of addresses) {
      const rule = this.egress.refusal(address);
      if (rule) throw new EgressDeniedError(hostname, address, rule);
    }
    return addresses[0]!;
  }

  /** A plain GET to the checked address with the domain as Host (redirects are not followed). */
  private get(address: string, hostname: string, path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const request = http.get(
        {
          host: address,
          family: net.isIPv6(address) ? 6 : 4,
          port: this.httpPort,
          path,
          headers: { host: hostname, 'user-agent': 'infragate-domain-check' },
          timeout: HTTP_TIMEOUT_MS,
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            body += chunk;
            if (body.length > MAX_PROOF_BYTES) response.destroy();
          });
          response.on('close', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${HTTP_TIMEOUT_MS} ms`)));
      request.on('error', reject);
    });
  }
}
