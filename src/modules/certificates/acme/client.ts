import crypto from 'node:crypto';
import type * as acme from 'acme-client';
import type { AcmeTransport } from './transport.js';

let library: Promise<typeof acme> | undefined;
/** acme-client (and node-forge with it) is loaded on first use: most processes, CLI commands, never order. */
const acmeLibrary = () => {
  library ??= import('acme-client');
  return library;
};

/** An ACME client for one account whose every request goes through the guarded transport. */
export async function acmeClient(
  transport: AcmeTransport,
  options: { directoryUrl: string; accountKeyPem: string; accountUrl?: string | null },
): Promise<acme.Client> {
  const { Client } = await acmeLibrary();
  const client = new Client({
    directoryUrl: options.directoryUrl,
    accountKey: options.accountKeyPem,
    ...(options.accountUrl ? { accountUrl: options.accountUrl } : {}),
  });
  // acme-client sends every request through its HttpClient's `request` (axios, unguarded); this
  // client's instance sends them through the egress-checked transport instead.
  (client as unknown as { http: { request: AcmeTransport['request'] } }).http.request = (url, method, opts) =>
    transport.request(url, method, opts);
  return client;
}

/** A new EC P-256 key as PKCS#8 PEM: accounts and certificates both use one. */
export function newPrivateKeyPem(): string {
  const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
}

/** A CSR for the domains (the first as common name), signed with the given key. */
export async function certificateRequest(domains: string[], keyPem: string): Promise<Buffer> {
  const { crypto: acmeCrypto } = await acmeLibrary();
  const [, csr] = await acmeCrypto.createCsr({ commonName: domains[0]!, altNames: domains }, keyPem);
  return csr;
}

/** `{type, detail}` of an RFC 7807 problem as one line, e.g. `urn:…:connection: Connection refused`. */
export function describeProblem(problem: unknown): string | undefined {
  if (!problem || typeof problem !== 'object') return undefined;
  const { type, detail } = problem as { type?: string; detail?: string };
  return [type, detail].filter(Boolean).join(': ') || undefined;
}
