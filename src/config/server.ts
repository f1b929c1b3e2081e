import { directory, GiB, integer, MiB, oneOf, section, text } from './settings.js';

/** Accepts 64 hex characters or base64 of exactly 32 bytes. */
export function decodeMasterKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const fromBase64 = Buffer.from(trimmed, 'base64');
  return fromBase64.length === 32 ? fromBase64 : undefined;
}

/** An http(s) URL without query or fragment, without its trailing slash (links append paths to it). */
function linkBase(given: string): string | undefined {
  const url = URL.canParse(given) ? new URL(given) : undefined;
  if (url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash)
    return url.toString().replace(/\/+$/, '');
  return undefined;
}

/** The runtime contract (docs/DESIGN.md) and the HTTP listener. */
export const serverSettings = section('Server', {
  port: integer('PORT', { default: 8080, min: 0, max: 65535, doc: 'HTTP port' }),
  host: text('HOST', {
    default: '127.0.0.1',
    accepts: 'an IP address or host name',
    doc: 'Address to listen on (`0.0.0.0` for all interfaces)',
  }),
  dataDir: directory('INFRAGATE_DATA_DIR', {
    default: './data',
    doc: 'Embedded database, master key file, stored files',
  }),
  databaseUrl: text('DATABASE_URL', {
    accepts: 'a postgres:// or postgresql:// URL',
    parse: (given) => (/^postgres(ql)?:\/\//.test(given) ? given : undefined),
    secret: true,
    unset: 'unset (the embedded PGlite)',
    doc: 'A PostgreSQL server to use instead of the embedded PGlite database in `<data dir>/db`',
  }),
  masterKey: text('INFRAGATE_MASTER_KEY', {
    accepts: '32 bytes as 64 hex characters or base64',
    parse: (given) => (decodeMasterKey(given) ? given : undefined),
    secret: true,
    unset: 'unset (a key file)',
    doc: 'Key encrypting secrets at rest; unset → `<data dir>/master.key` is generated with mode 0600',
  }),
  egress: oneOf('INFRAGATE_EGRESS', ['public', 'private', 'any'], {
    default: 'private',
    doc: 'Which addresses outbound calls may reach: `public`, `private` (also RFC 1918/ULA) or `any` (also loopback). Link-local and metadata addresses are always refused',
  }),
  logLevel: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    default: 'info',
    doc: 'Least severe level written to the log',
  }),
  bodyLimitBytes: integer('INFRAGATE_BODY_LIMIT_BYTES', {
    default: MiB,
    min: 1024,
    max: GiB,
    doc: 'Largest JSON request body, in bytes (413 past it)',
  }),
  publicUrl: text('INFRAGATE_PUBLIC_URL', {
    accepts: 'an http:// or https:// URL without query or fragment',
    parse: linkBase,
    unset: '`http://<HOST>:<PORT>`',
    doc: "Where people reach the console (a trailing slash is dropped); links in notifications and sign-in callbacks point here. Unset with a wildcard `HOST`, the machine's host name stands in for it",
  }),
});
