import type { Body } from '../../api/types';
import type { Channel, ChannelKind } from './queries';

type NewChannel = Body<'/api/notifications/channels', 'post'>;
type ChannelChanges = Body<'/api/notifications/channels/{id}', 'patch'>;

/** The channel dialog's fields, flat; write-only ones start empty and are sent only when typed. */
export interface ChannelValues extends Record<string, unknown> {
  name: string;
  kind: ChannelKind;
  enabled: boolean;
  url: string;
  secret: string;
  removeSecret: boolean;
  headers: string;
  removeHeaders: boolean;
  smtpHost: string;
  smtpPort: number | string;
  smtpSecure: boolean;
  smtpStarttls: 'required' | 'opportunistic' | 'off';
  smtpUsername: string;
  smtpPassword: string;
  removeSmtpPassword: boolean;
  smtpCaPem: string;
  from: string;
  to: string[];
}

export function channelValues(channel?: Channel): ChannelValues {
  return {
    name: channel?.name ?? '',
    kind: channel?.kind ?? 'webhook',
    enabled: channel?.enabled ?? true,
    // A Slack URL is a credential: never answered, so never shown.
    url: channel?.url ?? '',
    secret: '',
    removeSecret: false,
    headers: '',
    removeHeaders: false,
    smtpHost: channel?.smtp?.host ?? '',
    smtpPort: channel?.smtp?.port ?? '',
    smtpSecure: channel?.smtp?.secure ?? false,
    smtpStarttls: channel?.smtp?.starttls ?? 'required',
    smtpUsername: channel?.smtp?.username ?? '',
    smtpPassword: '',
    removeSmtpPassword: false,
    smtpCaPem: '',
    from: channel?.from ?? '',
    to: channel?.to ?? [],
  };
}

/** `Name: value` lines as a header record; the first line that is not one is an error. */
export function parseHeaders(text: string): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `line ${index + 1}: write each header as Name: value` };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers };
}

/** A write-only value: the typed one, `null` to remove it, or nothing (keep it). */
function writeOnly(typed: string, remove: boolean): { value?: string | null } {
  if (typed) return { value: typed };
  return remove ? { value: null } : {};
}

function smtpFields(values: ChannelValues) {
  return {
    host: values.smtpHost,
    ...(typeof values.smtpPort === 'number' ? { port: values.smtpPort } : {}),
    secure: values.smtpSecure,
    ...(values.smtpSecure ? {} : { starttls: values.smtpStarttls }),
    ...(values.smtpCaPem ? { caPem: values.smtpCaPem } : {}),
  };
}

/** The body of `POST /api/notifications/channels` for the fields of the channel's kind. */
export function newChannel(values: ChannelValues, headers: Record<string, string>): NewChannel {
  const common = { name: values.name, kind: values.kind, enabled: values.enabled };
  if (values.kind === 'slack') return { ...common, url: values.url };
  if (values.kind === 'webhook')
    return {
      ...common,
      url: values.url,
      ...(values.secret ? { secret: values.secret } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  return {
    ...common,
    smtp: {
      ...smtpFields(values),
      ...(values.smtpUsername ? { username: values.smtpUsername } : {}),
      ...(values.smtpPassword ? { password: values.smtpPassword } : {}),
    },
    from: values.from,
    to: values.to,
  };
}

/** The body of `PATCH /api/notifications/channels/{id}`: write-only values only when typed or removed. */
export function channelChanges(values: ChannelValues, headers: Record<string, string>): ChannelChanges {
  const common = { name: values.name, enabled: values.enabled };
  if (values.kind === 'slack') return { ...common, ...(values.url ? { url: values.url } : {}) };
  if (values.kind === 'webhook') {
    const secret = writeOnly(values.secret, values.removeSecret);
    const typedHeaders = Object.keys(headers).length > 0;
    return {
      ...common,
      url: values.url,
      ...('value' in secret ? { secret: secret.value } : {}),
      ...(typedHeaders ? { headers } : values.removeHeaders ? { headers: null } : {}),
    };
  }
  const password = writeOnly(values.smtpPassword, values.removeSmtpPassword);
  return {
    ...common,
    smtp: {
      ...smtpFields(values),
      username: values.smtpUsername || null,
      ...('value' in password ? { password: password.value } : {}),
    },
    from: values.from,
    to: values.to,
  };
}
