import dns from 'node:dns';
import net from 'node:net';
import { Agent, fetch, type RequestInit, type Response } from 'undici';
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

// Link-local (cloud metadata lives there), unspecified, multicast and reserved ranges are never targets.
const FORBIDDEN = blockList(
  ['0.0.0.0/8', '169.254.0.0/16', '224.0.0.0/4', '240.0.0.0/4'],
  ['::/128', 'fe80::/10', 'ff00::/8', 'fd00:ec2::254/128'],
);
const LOOPBACK = blockList(['127.0.0.0/8'], ['::1/128']);
const PRIVATE = blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], ['fc00::/7']);

export function classifyAddress(address: string): AddressClass {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1]! : address;
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
}

/**
 * Every outbound connection of the gateway goes through here. Host names are resolved once and the
 * connection is made to the address that was checked, which defeats DNS rebinding; redirects are
 * followed by hand so every hop is checked again.
 */
export class EgressGuard {
  private readonly agent: Agent;

  constructor(readonly policy: EgressPolicy) {
    this.agent = new Agent({
      connect: { lookup: (hostname, options, callback) => this.lookup(hostname, options, callback) },
    });
  }

  /** Why an address may not be reached under the policy, or undefined when it may. */
  refusal(address: string): string | undefined {
    const kind = classifyAddress(address);
    if (kind === 'forbidden')
      return 'link-local, metadata, multicast and unspecified addresses are always refused';
    if (ALLOWED[this.policy].includes(kind)) return undefined;
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

  async fetch(url: string | URL, init: GuardedRequestInit = {}): Promise<Response> {
    const { timeoutMs = 10_000, maxRedirects = 5, ...rest } = init;
    const signal = AbortSignal.timeout(timeoutMs);
    let target = new URL(url);
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
      const response = await fetch(target, { ...rest, dispatcher: this.agent, redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location || hop >= maxRedirects)
        return response;
      await response.body?.cancel();
      target = new URL(location, target);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
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
