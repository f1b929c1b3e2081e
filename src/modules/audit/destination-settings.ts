import crypto from 'node:crypto';
import { type ValidationIssue, validationError } from '../../core/errors.js';
import { destinationMoved, secretsToDrop } from '../../core/trust-boundary.js';
import type { SiemKind, SiemSettings, siemDestinations } from '../../db/schema/index.js';
import type { DestinationChanges } from './schemas.js';
import { hecEndpoint, type SinkTarget } from './sinks.js';

// What a destination of each kind takes, how its settings are checked and stored, and how they are
// used to send.

/** Where sealed destination credentials live; binds each ciphertext to its column. */
export const SECRET_CONTEXT = 'siem_destinations.secret_sealed';

type DestinationRow = typeof siemDestinations.$inferSelect;

/** The request field of a kind's write-only credential: the webhook's signing secret or the HEC token; syslog has none. */
const CREDENTIAL_FIELD: Partial<Record<SiemKind, 'secret' | 'token'>> = {
  webhook: 'secret',
  splunk_hec: 'token',
};

/** The credential a request gives for a destination of this kind, if any. */
export function credentialOf(kind: SiemKind, input: DestinationChanges): string | undefined {
  const field = CREDENTIAL_FIELD[kind];
  return field && input[field];
}

/** Where a kind's credential is sent: the URL posted to (for HEC, the endpoint a bare URL stands for). */
const credentialDestination = (kind: SiemKind, settings: SiemSettings) =>
  kind === 'splunk_hec' && settings.url ? hecEndpoint(settings.url) : settings.url;

/**
 * The stored credential a change from `current` to `next` settings drops (as its request field,
 * `secret` or `token`): the one whose URL moved, unless the request gives it again.
 */
export function droppedCredential(
  current: DestinationRow,
  next: SiemSettings,
  input: DestinationChanges,
): string[] {
  const field = CREDENTIAL_FIELD[current.kind];
  if (!field) return [];
  const moved = destinationMoved(
    credentialDestination(current.kind, current.settings),
    credentialDestination(current.kind, next),
  );
  return secretsToDrop(moved, {
    [field]: { stored: current.secretSealed !== null, supplied: input[field] !== undefined },
  });
}

/** Which settings each kind takes, and which are required. */
const KIND_FIELDS: Record<
  SiemKind,
  { required: (keyof DestinationChanges)[]; allowed: (keyof DestinationChanges)[] }
> = {
  webhook: { required: ['url', 'secret'], allowed: ['url', 'secret'] },
  splunk_hec: { required: ['url', 'token'], allowed: ['url', 'token', 'index', 'sourcetype', 'source'] },
  syslog: { required: ['host', 'port'], allowed: ['host', 'port', 'tls', 'caPem', 'facility', 'appName'] },
};
/** The settings that say where and how to send; changing one retries the destination at once. */
export const KIND_SPECIFIC: (keyof DestinationChanges)[] = [
  'url',
  'host',
  'port',
  'tls',
  'caPem',
  'index',
  'sourcetype',
  'source',
  'facility',
  'appName',
  'secret',
  'token',
];

/** What the sender needs: the kind, the settings and the opened credential. */
export function destinationTarget(row: DestinationRow, open: (sealed: string) => string): SinkTarget {
  return { kind: row.kind, settings: row.settings, secret: row.secretSealed ? open(row.secretSealed) : null };
}

/** Settings as they may appear in an audit event: no credentials, no certificate bodies. */
export function describeSettings(settings: SiemSettings): Record<string, unknown> {
  const { caPem, ...rest } = settings;
  return { ...rest, ...(caPem ? { hasCaPem: true } : {}) };
}

/** 400 naming every setting the kind does not take, or (when creating) lacks, and every malformed one. */
export function checkKindFields(kind: SiemKind, input: DestinationChanges, creating: boolean): void {
  const rules = KIND_FIELDS[kind];
  const issues: ValidationIssue[] = [];
  for (const key of KIND_SPECIFIC) {
    const given = input[key] !== undefined;
    if (given && !rules.allowed.includes(key))
      issues.push({ path: [key], message: `is not used by kind ${kind}` });
    if (creating && !given && rules.required.includes(key))
      issues.push({ path: [key], message: `is required for kind ${kind}` });
  }
  if (input.url !== undefined) {
    const url = new URL(input.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      issues.push({ path: ['url'], message: 'must be an http or https URL' });
    if (url.username || url.password) {
      issues.push({ path: ['url'], message: 'must not carry credentials; use the secret or token field' });
    }
  }
  if (input.caPem) {
    try {
      new crypto.X509Certificate(input.caPem);
    } catch {
      issues.push({ path: ['caPem'], message: 'is not a PEM certificate' });
    }
  }
  if (issues.length > 0) throw validationError(issues);
}

/**
 * The stored settings after applying `input` to `current`: a null removes a setting, undefined keeps
 * it. 400 when the result does not hold together (a CA without TLS).
 */
export function buildSettings(
  kind: SiemKind,
  current: SiemSettings,
  input: DestinationChanges,
): SiemSettings {
  const next: SiemSettings = { ...current };
  const assign = <K extends keyof SiemSettings>(key: K, value: SiemSettings[K] | null | undefined) => {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  };
  if (kind === 'syslog') {
    assign('host', input.host?.trim());
    assign('port', input.port);
    assign('tls', input.tls ?? (current.tls === undefined ? false : undefined));
    assign('caPem', input.caPem);
    assign('facility', input.facility);
    assign('appName', input.appName);
    if (next.caPem && !next.tls) throw validationError([{ path: ['caPem'], message: 'needs tls: true' }]);
  } else {
    assign('url', input.url);
    if (kind === 'splunk_hec') {
      assign('index', input.index);
      assign('sourcetype', input.sourcetype);
      assign('source', input.source);
    }
  }
  return next;
}
