import dns from 'node:dns';
import net from 'node:net';
import type { Agent, RequestInit, Response } from 'undici';
import type { EgressPolicy } from '../config.js';

export type AddressClass = 'public' | 'private' | 'loopback' | 'forbidden';

function blockList(v4: string[], v6: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const cidr of v4) {
    const [address, prefix] = cidr.split('/');
    list.addSubnet(address!, Number(prefix), 'ipv4');
  }
  for (const cidr of v6) {
    const [address, prefix] = cidr.split('/');
    list.addSubnet(address!, Number(prefix), 'ipv6');
  }
  return list;
}

// Link-local (cloud metadata lives there), other cloud metadata endpoints, unspecified, documentation,
// multicast and reserved ranges are never targets.
const FORBIDDEN = blockList(
  [
    '0.0.0.0/8',
    '169.254.0.0/16',
    '100.100.100.200/32', // Alibaba Cloud metadata
    '192.0.0.192/32', // Oracle Cloud metadata
    '192.0.2.0/24',
    '198.51.100.0/24',
    '203.0.113.0/24',
    '224.0.0.0/4',
    '240.0.0.0/4',
  ],
  ['::/128', '100::/64', '2001:db8::/32', 'fe80::/10', 'ff00::/8', 'fd00:ec2::254/128'],
);
const LOOPBACK = blockList(['127.0.0.0/8'], ['::1/128']);
const PRIVATE = blockList(
  ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '198.18.0.0/15'],
  ['fc00::/7', 'fec0::/10'],
);

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((group) => Number.parseInt(group, 16));
}

const ipv4From = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 address carries and may reach: IPv4-mapped (`::ffff:a.b.c.d`), the deprecated
 * IPv4-compatible form (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`).
 */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (g.length !== 8 || g.some((group) => Number.isNaN(group))) return undefined;
  const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zero(0, 5) && g[5] === 0xffff) return ipv4From(g[6]!, g[7]!);
  if (zero(0, 6) && (g[6] !== 0 || g[7]! > 1)) return ipv4From(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return ipv4From(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4From(g[1]!, g[2]!);
  return undefined;
}

/** The class of an IP address; an IPv6 address that embeds an IPv4 one is classed by that address. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '');
  const ip = net.isIPv6(bare) ? (embeddedIpv4(bare) ?? bare) : bare;
  if (!net.isIP(ip)) return 'forbidden';
  const family = net.isIPv4(ip) ? 'ipv4' : 'ipv6';
  if (FORBIDDEN.check(ip, family)) return 'forbidden';
  if (LOOPBACK.check(ip, family)) return 'loopback';
  if (PRIVATE.check(ip, family)) return 'private';
  return 'public';
}

const ALLOWED: Record<EgressPolicy, readonly AddressClass[]> = {
  public: ['public'],
  private: ['public', 'private'],
  any: ['public', 'private', 'loopback'],
};

/** An outbound connection the policy does not allow; `rule` says which rule refused it. */
export class EgressDeniedError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly rule: string,
  ) {
    super(`egress to ${host} (${address}) refused: ${rule}`);
    this.name = 'EgressDeniedError';
  }
}

export interface GuardedRequestInit extends Omit<RequestInit, 'dispatcher' | 'redirect' | 'signal'> {
  /** Whole-request deadline; default 10 s. */
  timeoutMs?: number;
  /** How many redirects to follow, each re-checked; default 5. */
  maxRedirects?: number;
  /** Extra request headers that carry credentials, dropped when a redirect leaves the origin. */
  credentialHeaders?: string[];
  /** Aborts the request besides the deadline (e.g. when the client it is made for went away). */
  abort?: AbortSignal;
}

/** Headers that carry credentials; a redirect to another origin never receives them. */
const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'private-token',
  'job-token',
  'x-api-key',
  'api-key',
];

/**
 * Every outbound connection of the gateway goes through here. Host names are resolved once and the
 * connection is made to the address that was checked, which defeats DNS rebinding; redirects are
 * followed by hand so every hop is checked again.
 */
export class EgressGuard {
  /** The HTTP client (undici) is loaded and its connection pool made on the first outbound request. */
  private client: Promise<{ undici: typeof import('undici'); agent: Agent }> | undefined;
  private ownHostGuard: EgressGuard | undefined;

  /** `ownHost`: the guard of work on the gateway's own host, which may also reach loopback. */
  constructor(
    readonly policy: EgressPolicy,
    private readonly ownHost = false,
  ) {}

  private http() {
    this.client ??= import('undici').then((undici) => ({
      undici,
      agent: new undici.Agent({
        connect: { lookup: (hostname, options, callback) => this.lookup(hostname, options, callback) },
      }),
    }));
    return this.client;
  }

  /**
   * The guard for outbound work on behalf of a container engine on the gateway's own host (a node on a
   * local unix socket): its published ports and a registry it pulls from listen on loopback, so loopback
   * is allowed whatever the policy. Everything the policy refuses otherwise stays refused, and
   * link-local and metadata addresses are refused as always.
   */
  forOwnHost(): EgressGuard {
    if (this.ownHost) return this;
    this.ownHostGuard ??= new EgressGuard(this.policy, true);
    return this.ownHostGuard;
  }

  /** Why an address may not be reached under the policy, or undefined when it may. */
  refusal(address: string): string | undefined {
    const kind = classifyAddress(address);
    if (kind === 'forbidden')
      return 'link-local, cloud metadata, multicast, documentation, reserved and unspecified addresses are always refused';
    if (ALLOWED[this.policy].includes(kind)) return undefined;
    if (this.ownHost && kind === 'loopback') return undefined;
    return `${kind} addresses are not allowed by INFRAGATE_EGRESS=${this.policy}`;
  }

  /** Resolves a host and checks every address it has; returns the first, to connect to. */
  async resolve(host: string): Promise<string> {
    const bare = host.replace(/^\[|\]$/g, '');
    const addresses = net.isIP(bare)
      ? [bare]
      : (await dns.promises.lookup(bare, { all: true })).map((a) => a.address);
    for (const address of addresses) {
      const rule = this.refusal(address);
      if (rule) throw new EgressDeniedError(host, address, rule);
    }
    return addresses[0]!;
  }

  /**
   * `fetch` through the guard. Redirects are followed by hand: every hop is checked again, a 303 (and a
   * 301/302 after a POST) continues as a GET without body, and credential headers are dropped as soon as
   * a hop leaves the origin of the first request.
   */
  async fetch(url: string | URL, init: GuardedRequestInit = {}): Promise<Response> {
    const { timeoutMs = 10_000, maxRedirects = 5, credentialHeaders = [], abort, ...rest } = init;
    const { undici, agent } = await this.http();
    const { fetch, Headers } = undici;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = abort ? AbortSignal.any([deadline, abort]) : deadline;
    let target = new URL(url);
    const origin = target.origin;
    let method = (rest.method ?? 'GET').toUpperCase();
    let body = rest.body;
    const headers = new Headers(rest.headers);
    for (let hop = 0; ; hop++) {
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new EgressDeniedError(target.host, '-', `scheme ${target.protocol} is not allowed`);
      }
      // IP literals never reach the lookup hook, so they are checked here.
      const bare = target.hostname.replace(/^\[|\]$/g, '');
      if (net.isIP(bare)) {
        const rule = this.refusal(bare);
        if (rule) throw new EgressDeniedError(target.hostname, bare, rule);
      }
      const response = await fetch(target, {
        ...rest,
        method,
        headers,
        body,
        dispatcher: agent,
        redirect: 'manual',
        signal,
      });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location || hop >= maxRedirects)
        return response;
      await response.body?.cancel();
      target = new URL(location, target);
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        for (const name of ['content-type', 'content-length', 'content-encoding']) headers.delete(name);
      }
      if (target.origin !== origin) {
        for (const name of [...CREDENTIAL_HEADERS, ...credentialHeaders]) headers.delete(name);
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.client?.then(({ agent }) => agent.close()), this.ownHostGuard?.close()]);
  }

  private lookup(
    hostname: string,
    options: dns.LookupOptions,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | dns.LookupAddress[],
      family?: number,
    ) => void,
  ): void {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      for (const { address } of addresses) {
        const rule = this.refusal(address);
        if (rule) return callback(new EgressDeniedError(hostname, address, rule), '');
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }
}

/** Finds an EgressDeniedError in an error's cause chain (fetch wraps connection errors). */
export function findEgressDenial(error: unknown): EgressDeniedError | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof EgressDeniedError) return current;
  }
  return undefined;
}
