import crypto from 'node:crypto';
import { type ValidationIssue, validationError } from '../../core/errors.js';
import { destinationMoved, secretsToDrop } from '../../core/trust-boundary.js';
import type {
  ChannelSecrets,
  ChannelSettings,
  NotificationChannelKind,
  notificationChannels,
} from '../../db/schema/index.js';
import type { Channel, ChannelUpdate } from './schemas.js';

/** Binds the sealed secrets of a channel to their column. */
export const SECRETS_CONTEXT = 'notification_channels.secrets_sealed';

type KindField = 'url' | 'secret' | 'headers' | 'smtp' | 'from' | 'to';
const KIND_FIELDS: Record<NotificationChannelKind, { required: KindField[]; allowed: KindField[] }> = {
  webhook: { required: ['url'], allowed: ['url', 'secret', 'headers'] },
  slack: { required: ['url'], allowed: ['url'] },
  email: { required: ['smtp', 'from', 'to'], allowed: ['smtp', 'from', 'to'] },
};
const KIND_SPECIFIC: KindField[] = ['url', 'secret', 'headers', 'smtp', 'from', 'to'];

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** Headers the gateway sets itself (framing, signature, identity): a custom one may not replace them. */
const RESERVED_HEADERS = [
  'host',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'user-agent',
];

/** A channel as stored: the settings shown to callers and the secrets that never are. */
export interface StoredChannel {
  settings: ChannelSettings;
  secrets: ChannelSecrets;
}

/**
 * Checks what a request may set on a channel of this kind: fields of another kind are refused,
 * required ones must be given when creating, and the rules a schema cannot express (URL scheme,
 * header names, PEM) hold. All problems are reported at once.
 */
export function checkChannelInput(
  kind: NotificationChannelKind,
  input: ChannelUpdate,
  creating: boolean,
): void {
  const rules = KIND_FIELDS[kind];
  const issues: ValidationIssue[] = [];
  for (const key of KIND_SPECIFIC) {
    const given = input[key] !== undefined;
    if (given && !rules.allowed.includes(key))
      issues.push({ path: [key], message: `is not used by a ${kind} channel` });
    if (creating && !given && rules.required.includes(key))
      issues.push({ path: [key], message: `is required for a ${kind} channel` });
  }
  if (input.url !== undefined) {
    const url = URL.canParse(input.url) ? new URL(input.url) : undefined;
    if (url?.protocol !== 'https:' && url?.protocol !== 'http:')
      issues.push({ path: ['url'], message: 'must be an http or https URL' });
    else if (url.username || url.password)
      issues.push({ path: ['url'], message: 'must not carry credentials; use the secret or headers' });
  }
  const seen = new Set<string>();
  for (const name of Object.keys(input.headers ?? {})) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name))
      issues.push({ path: ['headers', name], message: 'is not a valid header name' });
    else if (RESERVED_HEADERS.includes(lower) || lower.startsWith('x-infragate-'))
      issues.push({ path: ['headers', name], message: 'is set by the gateway and cannot be replaced' });
    else if (seen.has(lower)) issues.push({ path: ['headers', name], message: 'is given twice' });
    seen.add(lower);
  }
  if (input.smtp?.caPem) {
    try {
      new crypto.X509Certificate(input.smtp.caPem);
    } catch {
      issues.push({ path: ['smtp', 'caPem'], message: 'is not a PEM certificate' });
    }
  }
  if (issues.length > 0) throw validationError(issues);
}

const assign = <T extends object, K extends keyof T>(target: T, key: K, value: T[K] | null | undefined) => {
  if (value === null) delete target[key];
  else if (value !== undefined) target[key] = value;
};

/** Settings and secrets after a create (from empty) or an update (from what is stored). */
export function applyChannelInput(
  kind: NotificationChannelKind,
  current: StoredChannel,
  input: ChannelUpdate,
): StoredChannel {
  const settings: ChannelSettings = structuredClone(current.settings);
  const secrets: ChannelSecrets = { ...current.secrets };
  if (kind === 'webhook') {
    assign(settings, 'url', input.url);
    assign(secrets, 'secret', input.secret);
    if (input.headers !== undefined) {
      const headers = Object.fromEntries(
        Object.entries(input.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
      );
      settings.headerNames = Object.keys(headers).sort();
      assign(secrets, 'headers', settings.headerNames.length > 0 ? headers : null);
    }
    settings.urlOrigin = new URL(settings.url!).origin;
  } else if (kind === 'slack') {
    assign(secrets, 'url', input.url);
    settings.urlOrigin = new URL(secrets.url!).origin;
  } else {
    assign(settings, 'from', input.from);
    assign(settings, 'to', input.to);
    if (input.smtp) settings.smtp = applySmtp(settings.smtp, secrets, input.smtp);
  }
  return { settings, secrets };
}

function applySmtp(
  current: ChannelSettings['smtp'],
  secrets: ChannelSecrets,
  input: NonNullable<ChannelUpdate['smtp']>,
): NonNullable<ChannelSettings['smtp']> {
  const secure = input.secure ?? current?.secure ?? false;
  const smtp: NonNullable<ChannelSettings['smtp']> = {
    host: (input.host ?? current?.host ?? '').trim(),
    port: input.port ?? current?.port ?? (secure ? 465 : 587),
    secure,
    starttls: input.starttls ?? current?.starttls ?? 'required',
    ...(current?.username ? { username: current.username } : {}),
    ...(current?.caPem ? { caPem: current.caPem } : {}),
  };
  assign(smtp, 'username', input.username);
  assign(smtp, 'caPem', input.caPem);
  assign(secrets, 'password', input.password);
  const issues: ValidationIssue[] = [];
  if (!smtp.host) issues.push({ path: ['smtp', 'host'], message: 'must not be blank' });
  if (secrets.password && !smtp.username)
    issues.push({ path: ['smtp', 'password'], message: 'needs a username' });
  if (smtp.caPem && !smtp.secure && smtp.starttls === 'off')
    issues.push({ path: ['smtp', 'caPem'], message: 'needs TLS: secure, or starttls other than off' });
  if (issues.length > 0) throw validationError(issues);
  return smtp;
}

/**
 * Where an SMTP password goes: host and port, and how the connection is protected (TLS from the
 * first byte; a required STARTTLS upgrade; or possibly in clear), as a scheme: a switch to a weaker
 * protection hands the password to whoever is on the path, as a new host would.
 */
function smtpDestination(smtp: NonNullable<ChannelSettings['smtp']>): string {
  const scheme = smtp.secure ? 'smtps' : smtp.starttls === 'required' ? 'smtp+starttls' : 'smtp';
  return `${scheme}://${smtp.host.includes(':') ? `[${smtp.host}]` : smtp.host}:${smtp.port}`;
}

/**
 * Where a channel's stored secrets are sent: the webhook's URL, the SMTP server. A Slack channel
 * has none apart from its URL: the URL is the secret, so a new one is always given with the change.
 */
function secretDestination(kind: NotificationChannelKind, settings: ChannelSettings): string | undefined {
  if (kind === 'webhook') return settings.url;
  if (kind === 'email' && settings.smtp) return smtpDestination(settings.smtp);
  return undefined;
}

/** The secrets of each kind that go to its destination: the request field, the stored key, the given value. */
const DESTINATION_SECRETS: Record<
  NotificationChannelKind,
  { field: string; key: keyof ChannelSecrets; given: (input: ChannelUpdate) => unknown }[]
> = {
  webhook: [
    { field: 'secret', key: 'secret', given: (input) => input.secret },
    { field: 'headers', key: 'headers', given: (input) => input.headers },
  ],
  slack: [],
  email: [{ field: 'smtp.password', key: 'password', given: (input) => input.smtp?.password }],
};

/**
 * A change from `before` to `after` without the secrets it moved away from: every stored secret of
 * a channel whose destination changed, unless the request gives it again. `dropped` names them as
 * the request does (`secret`, `headers`, `smtp.password`).
 */
export function dropMovedSecrets(
  kind: NotificationChannelKind,
  before: StoredChannel,
  after: StoredChannel,
  input: ChannelUpdate,
): { stored: StoredChannel; dropped: string[] } {
  const moved = destinationMoved(
    secretDestination(kind, before.settings),
    secretDestination(kind, after.settings),
  );
  const secrets = DESTINATION_SECRETS[kind];
  const dropped = secretsToDrop(
    moved,
    Object.fromEntries(
      secrets.map(({ field, key, given }) => [
        field,
        { stored: before.secrets[key] !== undefined, supplied: given(input) !== undefined },
      ]),
    ),
  );
  const stored = structuredClone(after);
  for (const { field, key } of secrets) if (dropped.includes(field)) delete stored.secrets[key];
  // A header's name alone is not sent: without its value, it is no longer listed.
  if (dropped.includes('headers')) stored.settings.headerNames = [];
  return { stored, dropped };
}

/** The host an outbound call of this channel goes to (checked against the egress policy when saved). */
export function channelHost(kind: NotificationChannelKind, stored: StoredChannel): string {
  if (kind === 'email') return stored.settings.smtp!.host;
  return new URL(kind === 'slack' ? stored.secrets.url! : stored.settings.url!).hostname;
}

type ChannelRow = typeof notificationChannels.$inferSelect;

/** A channel as answered: settings, and for each secret only whether it is set. */
export function toChannelView(row: ChannelRow, secrets: ChannelSecrets): Channel {
  const { settings, kind } = row;
  const smtp = settings.smtp;
  return {
    id: row.id,
    name: row.name,
    kind,
    enabled: row.enabled,
    url: kind === 'webhook' ? (settings.url ?? null) : null,
    urlOrigin: settings.urlOrigin ?? null,
    hasSecret: Boolean(secrets.secret),
    headerNames: settings.headerNames ?? [],
    smtp: smtp
      ? {
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          starttls: smtp.starttls,
          username: smtp.username ?? null,
          hasPassword: Boolean(secrets.password),
          hasCaPem: Boolean(smtp.caPem),
        }
      : null,
    from: settings.from ?? null,
    to: settings.to ?? [],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A channel's settings as an audit event may hold them: no secret, no certificate body. */
export function describeChannel(stored: StoredChannel): Record<string, unknown> {
  const { smtp, ...settings } = stored.settings;
  return {
    ...settings,
    ...(smtp
      ? {
          smtp: {
            host: smtp.host,
            port: smtp.port,
            secure: smtp.secure,
            starttls: smtp.starttls,
            username: smtp.username ?? null,
          },
        }
      : {}),
    secretsSet: Object.keys(stored.secrets).sort(),
  };
}
