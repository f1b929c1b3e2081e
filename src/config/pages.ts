import net from 'node:net';
import { ACME_EMAIL_PATTERN } from '../core/email-address.js';
import { isHostname } from '../core/hostnames.js';
import { boolean, GiB, integer, list, MiB, oneOf, section, text } from './settings.js';

/** `10.0.0.53`, `127.0.0.1:5353`, `[::1]:53` or `::1`. */
function addressWithPort(entry: string): string | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d{1,5}))?$/.exec(entry) ?? /^([0-9a-fA-F:]+)$/.exec(entry);
  const address = match?.[1] ?? match?.[2];
  return address && net.isIP(address) && Number(match?.[3] ?? 53) <= 65535 ? entry : undefined;
}

const lowercased = (accepts: (text: string) => boolean) => (given: string) => {
  const lower = given.toLowerCase();
  return accepts(lower) ? lower : undefined;
};

/** Static sites: upload limits, retention and how sites are served (src/modules/pages). */
export const pagesSettings = section('Pages', {
  retainDeployments: integer('INFRAGATE_PAGES_RETAIN_DEPLOYMENTS', {
    default: 10,
    min: 1,
    max: 10_000,
    doc: 'Unpinned deployments kept per project (the newest ones); pinned and production ones are always kept',
  }),
  maxArchiveBytes: integer('INFRAGATE_PAGES_MAX_ARCHIVE_BYTES', {
    default: 100 * MiB,
    min: 1024,
    max: 64 * GiB,
    doc: 'Largest deployment archive, in bytes as uploaded (compressed)',
  }),
  maxSiteBytes: integer('INFRAGATE_PAGES_MAX_SITE_BYTES', {
    default: 500 * MiB,
    min: 1024,
    max: 256 * GiB,
    doc: 'Largest total size of the files of one deployment once extracted, in bytes',
  }),
  maxFiles: integer('INFRAGATE_PAGES_MAX_FILES', {
    default: 20_000,
    min: 1,
    max: 1_000_000,
    doc: 'Most files in one deployment',
  }),
  sandbox: boolean('INFRAGATE_PAGES_SANDBOX', {
    default: true,
    doc: "Serve sites with `Content-Security-Policy: sandbox …`, so their scripts cannot act as the gateway's origin",
  }),
  baseDomain: text('INFRAGATE_PAGES_BASE_DOMAIN', {
    accepts: 'a DNS name such as pages.example.com',
    parse: lowercased(isHostname),
    unset: 'unset (only `/sites/`)',
    doc: 'Serve sites at `<slug>.<domain>` and previews at `<deploymentId>.<slug>.<domain>`',
  }),
  urlScheme: oneOf('INFRAGATE_PAGES_URL_SCHEME', ['https', 'http'], {
    default: 'https',
    doc: 'Scheme of the site, preview and custom-domain URLs the API answers',
  }),
  dnsServers: list('INFRAGATE_PAGES_DNS_SERVERS', {
    default: [],
    unset: "unset (the system's resolvers)",
    accepts: 'IP addresses with optional ports, comma-separated',
    entry: addressWithPort,
    doc: 'DNS servers (`ip`, `ip:port`, `[ipv6]:port`) asked for custom-domain TXT records and addresses',
  }),
  verifyHttpPort: integer('INFRAGATE_PAGES_VERIFY_HTTP_PORT', {
    default: 80,
    min: 1,
    max: 65535,
    doc: 'Port the HTTP ownership check of a custom domain connects to (80 unless a proxy maps another)',
  }),
  acmeEmail: text('INFRAGATE_PAGES_ACME_EMAIL', {
    accepts: 'an email address such as ops@example.com',
    parse: lowercased((given) => new RegExp(ACME_EMAIL_PATTERN).test(given)),
    unset: 'unset (off)',
    doc: 'ACME account email: a custom domain verified without a certificate chosen gets an http-01 certificate ordered (from `INFRAGATE_ACME_DIRECTORY_URL`)',
  }),
});
