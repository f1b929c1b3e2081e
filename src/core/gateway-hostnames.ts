import { eq, or } from 'drizzle-orm';
import { sslCertificates } from '../db/schema/index.js';
import type { Deps } from './deps.js';
import { unprocessable } from './errors.js';
import { canonicalHostname, hostOfHeader } from './hostnames.js';
import { isUuid } from './ids.js';

/**
 * The names the gateway itself answers at, which nothing it serves for someone else (a pages custom
 * domain, an ingress route) may take: whoever held one would be served instead of the console, and
 * could prove it by the HTTP check, which the gateway itself answers. They are
 * - the host of `INFRAGATE_PUBLIC_URL` (where people reach the console) and of `HOST` when it is a name;
 * - the exact names of the HTTPS listener's `INFRAGATE_TLS_DEFAULT_CERTIFICATE` (not its wildcards,
 *   which stand for names the gateway may serve sites at);
 * - the name the request at hand reached the gateway by.
 * Every spelling counts: names are compared in their canonical form (`canonicalHostname`), so case,
 * a trailing dot and the Unicode or `xn--` form of an internationalised name make no difference.
 */
export class GatewayHostnames {
  private readonly db: Deps['db'];
  private readonly configured: ReadonlySet<string>;
  private readonly defaultCertificate: string | undefined;

  constructor(deps: Pick<Deps, 'db' | 'config'>) {
    this.db = deps.db;
    const { config } = deps;
    this.configured = new Set(
      [new URL(config.publicUrl).hostname, config.host]
        .map(canonicalHostname)
        .filter((name) => name !== undefined),
    );
    this.defaultCertificate = config.https.defaultCertificate;
  }

  /** The gateway's own names now (the default certificate's are read each time: it may be replaced). */
  async names(): Promise<ReadonlySet<string>> {
    const wanted = this.defaultCertificate;
    if (wanted === undefined) return this.configured;
    const rows = await this.db
      .select({ sans: sslCertificates.sans })
      .from(sslCertificates)
      .where(
        isUuid(wanted)
          ? or(eq(sslCertificates.id, wanted), eq(sslCertificates.name, wanted))
          : eq(sslCertificates.name, wanted),
      );
    const names = new Set(this.configured);
    for (const san of rows.flatMap((row) => row.sans ?? [])) {
      const name = san.startsWith('*.') ? undefined : canonicalHostname(san);
      if (name) names.add(name);
    }
    return names;
  }

  /**
   * Why `hostname` is the gateway's own (in words for an operator), or undefined when it is free.
   * `requestHost` is the `Host` header of the request that asks, when there is one.
   */
  async refusal(hostname: string, requestHost?: string): Promise<string | undefined> {
    const name = canonicalHostname(hostname) ?? hostname;
    if (name === hostOfHeader(requestHost)) return 'this request reached the gateway by this name';
    if ((await this.names()).has(name))
      return 'the gateway itself answers at this name (INFRAGATE_PUBLIC_URL, HOST or the HTTPS default certificate)';
    return undefined;
  }
}

/** The answer to a request that would give a reserved name away: 422 `HOSTNAME_RESERVED`. */
export function hostnameReserved(hostname: string, explanation: string) {
  return unprocessable('HOSTNAME_RESERVED', explanation, { hostname });
}
