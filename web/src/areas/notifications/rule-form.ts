import type { Body } from '../../api/types';
import type { EventKind, Rule } from './queries';

type NewRule = Body<'/api/notifications/rules', 'post'>;
type RuleChanges = Body<'/api/notifications/rules/{id}', 'patch'>;
type Filters = NonNullable<NewRule['filters']>;
export type FilterKey = keyof Filters;

/** The filters a rule may narrow an event by, as the form labels them. */
export const FILTER_LABELS: Record<FilterKey, string> = {
  nodeId: 'Container-host node',
  containerName: 'Container name',
  destinationId: 'SIEM destination',
  certificateId: 'Certificate',
  connectorId: 'Repository-host connector',
};

/** The rule form's fields as it labels them, for the gateway's refusals in words. */
export const RULE_FIELD_LABELS = {
  channelIds: 'Channels',
  withinDays: 'Days before expiry',
  renotifyMinutes: 'Remind every',
  ...Object.fromEntries(Object.entries(FILTER_LABELS).map(([key, label]) => [`filters.${key}`, label])),
};

export interface RuleValues extends Record<string, unknown> {
  name: string;
  event: string;
  channelIds: string[];
  enabled: boolean;
  filters: Record<FilterKey, string>;
  withinDays: string[];
  renotifyMinutes: number | string;
}

export function ruleValues(rule?: Rule): RuleValues {
  const filters = rule?.filters ?? {};
  return {
    name: rule?.name ?? '',
    event: rule?.event ?? '',
    channelIds: rule?.channelIds ?? [],
    enabled: rule?.enabled ?? true,
    filters: {
      nodeId: filters.nodeId ?? '',
      containerName: filters.containerName ?? '',
      destinationId: filters.destinationId ?? '',
      certificateId: filters.certificateId ?? '',
      connectorId: filters.connectorId ?? '',
    },
    withinDays: (rule?.withinDays ?? []).map(String),
    renotifyMinutes: rule?.renotifyMinutes ?? '',
  };
}

/** The settings of a rule that only some events take: filters, thresholds, reminders. */
function eventSettings(values: RuleValues, event: EventKind | undefined) {
  const filters = Object.fromEntries(
    (event?.filters ?? []).flatMap((key) => {
      const value = values.filters[key as FilterKey]?.trim();
      return value ? [[key, value]] : [];
    }),
  ) as Filters;
  const withinDays = values.withinDays.map(Number);
  return {
    filters: Object.keys(filters).length > 0 ? filters : undefined,
    withinDays: event?.mode === 'deadline' && withinDays.length > 0 ? withinDays : undefined,
    renotifyMinutes:
      event?.mode === 'condition' && typeof values.renotifyMinutes === 'number'
        ? values.renotifyMinutes
        : undefined,
  };
}

/** What every rule has: its name, event, channels and whether it is on. */
const basics = (values: RuleValues) => ({
  name: values.name,
  event: values.event as NewRule['event'],
  channelIds: values.channelIds,
  enabled: values.enabled,
});

export function newRule(values: RuleValues, event: EventKind | undefined): NewRule {
  const { filters, withinDays, renotifyMinutes } = eventSettings(values, event);
  return {
    ...basics(values),
    ...(filters ? { filters } : {}),
    ...(withinDays ? { withinDays } : {}),
    ...(renotifyMinutes !== undefined ? { renotifyMinutes } : {}),
  };
}

/** A change replaces every setting the form shows; one left empty is cleared (`null`). */
export function ruleChanges(values: RuleValues, event: EventKind | undefined): RuleChanges {
  const { filters, withinDays, renotifyMinutes } = eventSettings(values, event);
  return {
    ...basics(values),
    filters: filters ?? null,
    ...(event?.mode === 'deadline' ? { withinDays: withinDays ?? null } : {}),
    ...(event?.mode === 'condition' ? { renotifyMinutes: renotifyMinutes ?? null } : {}),
  };
}
