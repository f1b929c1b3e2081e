import type { Body } from '../../api/types';
import { type Destination, type DestinationKind, isKind, type NewDestination } from './queries';

type DestinationChange = Body<'/api/audit/siem/destinations/{id}', 'patch'>;

/** What the destination form holds; empty text and numbers are settings left as they are. */
export type DestinationValues = {
  name: string;
  kind: DestinationKind;
  enabled: boolean;
  url: string;
  secret: string;
  token: string;
  index: string;
  host: string;
  port: number | string;
  tls: boolean;
  batchSize: number | string;
  maxAttempts: number | string;
};

export function destinationValues(destination?: Destination): DestinationValues {
  return {
    name: destination?.name ?? '',
    kind: destination && isKind(destination.kind) ? destination.kind : 'webhook',
    enabled: destination?.enabled ?? true,
    url: destination?.url ?? '',
    secret: '',
    token: '',
    index: destination?.index ?? '',
    host: destination?.host ?? '',
    port: destination?.port ?? '',
    tls: destination?.tls ?? false,
    batchSize: destination?.batchSize ?? '',
    maxAttempts: destination?.maxAttempts ?? '',
  };
}

/** The settings each kind uses (the gateway refuses another kind's setting). */
const KIND_SETTINGS: Record<DestinationKind, (keyof DestinationValues)[]> = {
  webhook: ['url', 'secret'],
  splunk_hec: ['url', 'token', 'index'],
  syslog: ['host', 'port', 'tls'],
};

/**
 * The body of a change: name, enabled, the settings of the destination's kind that are filled in
 * (an empty secret or token keeps the stored one), and the batching limits that are set.
 */
export function destinationChange(values: DestinationValues): DestinationChange {
  const body: Record<string, unknown> = { name: values.name, enabled: values.enabled };
  for (const key of [...KIND_SETTINGS[values.kind], 'batchSize', 'maxAttempts'] as const) {
    const value = values[key];
    if (value !== '') body[key] = value;
  }
  return body as DestinationChange;
}

/** The body of a new destination: its kind and the same settings. */
export function newDestination(values: DestinationValues): NewDestination {
  return { ...destinationChange(values), name: values.name, kind: values.kind };
}
