import { domainToASCII } from 'node:url';

/**
 * DNS host names as the gateway accepts and compares them: lowercase letters, digits and hyphens in
 * labels of 1 to 63 characters, at least two labels, 253 characters in all, a last label that is not
 * all digits (so an IPv4 address is never a host name). Pages custom domains, the pages base domain
 * and certificate selection by SNI all compare names through these rules.
 */

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';

/** The JSON-schema pattern of a host name (lowercase; callers lowercase what people type). */
export const HOSTNAME_PATTERN = `^(?=.{1,253}$)(?:${LABEL}\\.)+(?=[a-z0-9-]*[a-z])${LABEL}$`;

const HOSTNAME = new RegExp(HOSTNAME_PATTERN);

export function isHostname(value: string): boolean {
  return HOSTNAME.test(value);
}

/**
 * A host name in the one spelling the gateway compares: lowercase ASCII without a trailing dot, an
 * internationalised name in its `xn--` form (`Bücher.Example.` → `xn--bcher-kva.example`); undefined
 * for an IP literal or anything that is not a host name. A name already in that form is answered as
 * it is, without the IDNA mapping.
 */
export function canonicalHostname(value: string): string | undefined {
  const plain = value.trim().toLowerCase().replace(/\.$/, '');
  if (isHostname(plain)) return plain;
  const ascii = domainToASCII(plain).replace(/\.$/, '');
  return isHostname(ascii) ? ascii : undefined;
}

/**
 * The host name a request names in its `Host` header, without the port, in its canonical spelling;
 * undefined for an IP literal or anything that is not a host name.
 */
export function hostOfHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return canonicalHostname(header.trim().replace(/:\d{1,5}$/, ''));
}

/** Whether `hostname` is a name below `domain` (`a.b.example.com` is below `example.com`; the domain itself is not). */
export function isBelow(hostname: string, domain: string): boolean {
  return hostname.endsWith(`.${domain}`);
}

/**
 * Whether a certificate name (a SAN entry or subject CN) covers a host name: the same name, or a
 * wildcard `*.example.com` standing for exactly one label (`a.example.com`, not `a.b.example.com`
 * nor `example.com`), as RFC 6125 allows.
 */
export function certificateNameCovers(certificateName: string, hostname: string): boolean {
  const name = certificateName.toLowerCase().replace(/\.$/, '');
  if (!name.startsWith('*.')) return name === hostname;
  const parent = name.slice(2);
  const dot = hostname.indexOf('.');
  return dot > 0 && hostname.slice(dot + 1) === parent;
}
