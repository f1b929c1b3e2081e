import type { Answer, Body, Query } from '../../api/types';

export type AuditEvent = Answer<'/api/audit/events', 'get'>['data'][number];
export type Destination = Answer<'/api/audit/siem/destinations', 'get'>['data'][number];
export type Delivery = Answer<'/api/audit/siem/deliveries', 'get'>['data'][number];
export type DeliveryStatus = NonNullable<Query<'/api/audit/siem/deliveries', 'get'>['status']>;
export type NewDestination = Body<'/api/audit/siem/destinations', 'post'>;
export type DestinationKind = NewDestination['kind'];

/** The audit area's places in the query cache; a change invalidates `AUDIT_KEY`. */
export const AUDIT_KEY = ['audit'];
export const EVENTS_KEY = ['audit', 'events'];
export const DESTINATIONS_KEY = ['audit', 'destinations'];
export const DELIVERIES_KEY = ['audit', 'deliveries'];

export const DELIVERY_STATUSES: DeliveryStatus[] = [
  'queued',
  'delivering',
  'delivered',
  'retrying',
  'failed',
  'paused',
  'discarded',
];

export const KIND_LABELS: Record<DestinationKind, string> = {
  webhook: 'Webhook (HMAC-signed)',
  splunk_hec: 'Splunk HEC',
  syslog: 'Syslog (RFC 5424, TCP/TLS)',
};

/** A destination's `kind` as answered (a string) is one the form knows. */
export function isKind(kind: string): kind is DestinationKind {
  return Object.hasOwn(KIND_LABELS, kind);
}

export const kindLabel = (kind: string) => (isKind(kind) ? KIND_LABELS[kind] : kind);
