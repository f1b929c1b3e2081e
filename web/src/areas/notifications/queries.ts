import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';

export type Channel = Answer<'/api/notifications/channels', 'get'>['data'][number];
export type Rule = Answer<'/api/notifications/rules', 'get'>['data'][number];
export type Delivery = Answer<'/api/notifications/deliveries', 'get'>['data'][number];
export type EventKind = Answer<'/api/notifications/events', 'get'>['data'][number];
export type ChannelKind = Channel['kind'];

/** The notifications area's place in the query cache; a change invalidates all of it. */
export const NOTIFICATIONS_KEY = ['notifications'];
export const CHANNELS_KEY = ['notifications', 'channels'];
export const RULES_KEY = ['notifications', 'rules'];
export const DELIVERIES_KEY = ['notifications', 'deliveries'];

/** The page of one delivery, with its attempts. */
export const deliveryPath = (id: string) => `/notifications/deliveries/${encodeURIComponent(id)}`;

// Pickers (a rule's channels, the deliveries' filters) offer this many; an installation has a handful.
const PICKER_LIMIT = 100;

/** The events a rule may send, with their modes and the filters each takes. */
export function useEvents() {
  return useQuery({
    queryKey: ['notifications', 'events'],
    queryFn: () => call(api.GET('/api/notifications/events')),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The channels, for pickers and for naming a rule's or a delivery's channel. */
export function useChannelChoices() {
  return useQuery({
    queryKey: [...CHANNELS_KEY, 'choices'],
    queryFn: () =>
      call(api.GET('/api/notifications/channels', { params: { query: { limit: PICKER_LIMIT } } })),
  });
}

/** The rules, for the deliveries' filter. */
export function useRuleChoices() {
  return useQuery({
    queryKey: [...RULES_KEY, 'choices'],
    queryFn: () => call(api.GET('/api/notifications/rules', { params: { query: { limit: PICKER_LIMIT } } })),
  });
}

/** `id → name` of what a picker query answered. */
export function namesById(items: readonly { id: string; name: string }[] | undefined): Map<string, string> {
  return new Map((items ?? []).map((item) => [item.id, item.name]));
}
