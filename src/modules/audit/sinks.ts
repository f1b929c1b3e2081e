import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import type { EgressGuard } from '../../core/egress-guard.js';
import { describeError } from '../../core/error-text.js';
import { signatureHeaders } from '../../core/webhook-signature.js';
import type { SiemKind, SiemSettings } from '../../db/schema/index.js';
import type { AuditEvent } from './schemas.js';

export interface SinkTarget {
  kind: SiemKind;
  settings: SiemSettings;
  /** Webhook HMAC secret or HEC token, opened; null once a change of URL dropped it. */
  secret: string | null;
}

export interface SendOptions {
  deliveryId: string;
  timeoutMs: number;
}

export interface SendResult {
  httpStatus: number | null;
}

/** A send that did not succeed; the message is safe to store and show (never holds a credential). */
export class SinkError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = 'SinkError';
  }
}

const USER_AGENT = 'infragate-siem/1';
/** Private enterprise number used for the structured-data id (documentation range, RFC 5612). */
const SD_ID = 'infragate@32473';
const HOSTNAME =
  os
    .hostname()
    .replace(/[^\x21-\x7e]/g, '')
    .slice(0, 255) || '-';

/** Sends one batch to one destination; resolves when the receiver took it, else throws a SinkError. */
export async function sendBatch(
  egress: EgressGuard,
  target: SinkTarget,
  events: AuditEvent[],
  options: SendOptions,
): Promise<SendResult> {
  try {
    switch (target.kind) {
      case 'webhook':
        return await sendWebhook(egress, target, events, options);
      case 'splunk_hec':
        return await sendHec(egress, target, events, options);
      case 'syslog':
        return await sendSyslog(egress, target, events, options);
    }
  } catch (error) {
    if (error instanceof SinkError) throw error;
    throw new SinkError(describeError(error));
  }
}

/**
 * The credential of a webhook or HEC destination, null only when a change of its URL dropped it (the
 * new receiver must not get what was given for the old one). Until it is set again nothing is sent:
 * not an unsigned batch, nor an empty token.
 */
function credential(target: SinkTarget, what: string, field: string): string {
  if (target.secret === null)
    throw new SinkError(`no ${what}: it was dropped when the URL changed; set ${field} again`);
  return target.secret;
}

async function post(
  egress: EgressGuard,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
) {
  const response = await egress.fetch(url, {
    method: 'POST',
    body,
    headers: { 'user-agent': USER_AGENT, ...headers },
    timeoutMs,
    maxRedirects: 0,
  });
  const text = await response.text().catch(() => '');
  return { status: response.status, text };
}

async function sendWebhook(
  egress: EgressGuard,
  target: SinkTarget,
  events: AuditEvent[],
  options: SendOptions,
): Promise<SendResult> {
  const body = events.map((event) => `${JSON.stringify(event)}\n`).join('');
  const { status, text } = await post(
    egress,
    target.settings.url!,
    body,
    {
      'content-type': 'application/x-ndjson',
      ...signatureHeaders(credential(target, 'signing secret', 'secret'), body),
      'x-infragate-delivery': options.deliveryId,
      'x-infragate-event-count': String(events.length),
    },
    options.timeoutMs,
  );
  if (status < 200 || status >= 300)
    throw new SinkError(`webhook answered HTTP ${status}${snippet(text)}`, status);
  return { httpStatus: status };
}

/** The HEC event endpoint: a bare base URL gets the standard path. */
export function hecEndpoint(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = '/services/collector/event';
  return parsed.toString();
}

async function sendHec(
  egress: EgressGuard,
  target: SinkTarget,
  events: AuditEvent[],
  options: SendOptions,
): Promise<SendResult> {
  const { index, sourcetype, source } = target.settings;
  const body = events
    .map((event) =>
      JSON.stringify({
        time: Date.parse(event.occurredAt) / 1000,
        host: HOSTNAME,
        source: source ?? 'infragate',
        sourcetype: sourcetype ?? 'infragate:audit',
        ...(index ? { index } : {}),
        event,
      }),
    )
    .join('\n');
  const { status, text } = await post(
    egress,
    hecEndpoint(target.settings.url!),
    body,
    {
      'content-type': 'application/json',
      authorization: `Splunk ${credential(target, 'HEC token', 'token')}`,
      'x-splunk-request-channel': options.deliveryId,
    },
    options.timeoutMs,
  );
  let answer: { code?: unknown; text?: unknown } = {};
  try {
    answer = JSON.parse(text);
  } catch {
    // A proxy in front of HEC may answer plain text; the status decides then.
  }
  if (status < 200 || status >= 300 || (answer.code !== undefined && answer.code !== 0)) {
    const reason = typeof answer.text === 'string' ? `: ${answer.text}` : snippet(text);
    throw new SinkError(`Splunk HEC answered HTTP ${status}${reason}`, status);
  }
  return { httpStatus: status };
}

function snippet(text: string): string {
  const trimmed = text.trim().slice(0, 200);
  return trimmed ? `: ${trimmed}` : '';
}

const escapeParam = (value: string) => value.replace(/["\\\]]/g, (char) => `\\${char}`);
const printable = (value: string, max: number) => value.replace(/[^\x21-\x7e]/g, '_').slice(0, max) || '-';

/** One RFC 5424 message: `<PRI>1 TIMESTAMP HOST APP PROCID MSGID [SD] MSG`, MSG being the event as JSON. */
function syslogMessage(event: AuditEvent, settings: SiemSettings): string {
  const facility = settings.facility ?? 13;
  const severity = event.outcome === 'failure' ? 4 : 6;
  const sd = `[${SD_ID} id="${event.id}" seq="${event.seq}" outcome="${escapeParam(event.outcome)}"]`;
  return [
    `<${facility * 8 + severity}>1`,
    event.occurredAt,
    HOSTNAME,
    printable(settings.appName ?? 'infragate', 48),
    String(process.pid),
    printable(event.action, 32),
    sd,
    JSON.stringify(event),
  ].join(' ');
}

/** Octet-counting framing (RFC 6587 3.4.1): `<length> <message>`. */
function octetCounted(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `), body]);
}

async function sendSyslog(
  egress: EgressGuard,
  target: SinkTarget,
  events: AuditEvent[],
  options: SendOptions,
): Promise<SendResult> {
  const { host, port, tls: useTls, caPem } = target.settings;
  const address = await egress.resolve(host!);
  const payload = Buffer.concat(events.map((event) => octetCounted(syslogMessage(event, target.settings))));
  await new Promise<void>((resolve, reject) => {
    const socket = useTls
      ? tls.connect({
          host: address,
          port: port!,
          ...(net.isIP(host!) ? {} : { servername: host! }),
          ...(caPem ? { ca: caPem } : {}),
        })
      : net.connect({ host: address, port: port! });
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        socket.destroy();
        reject(error);
      } else resolve();
    };
    const timer = setTimeout(
      () => finish(new SinkError(`syslog send timed out after ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    socket.once('error', (error) => finish(error));
    socket.once(useTls ? 'secureConnect' : 'connect', () => {
      // Written, then a clean close: TCP syslog has no application acknowledgement beyond that.
      socket.end(payload);
    });
    socket.once('close', (hadError) => {
      if (hadError) finish(new SinkError('syslog connection closed with an error'));
      else finish();
    });
    socket.resume();
  });
  return { httpStatus: null };
}
