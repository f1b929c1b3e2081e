import { AUDIT_EVENT_FILTERS } from '../../../../src/core/console-pages';
import type { Query } from '../../api/types';

export type EventQuery = Omit<Query<'/api/audit/events', 'get'>, 'page' | 'limit'>;

/** What the filter bar holds; empty strings are filters not set. */
export interface EventFilters {
  actor: string;
  /** An exact action (`users.group.created`) or a prefix (`users.*`). */
  action: string;
  targetType: string;
  targetId: string;
  outcome: '' | 'success' | 'failure';
  /** `datetime-local` values, in the browser's time zone. */
  from: string;
  to: string;
}

export const NO_EVENT_FILTERS: EventFilters = {
  actor: '',
  action: '',
  targetType: '',
  targetId: '',
  outcome: '',
  from: '',
  to: '',
};

/**
 * The API's `action` filter: exact, or a prefix ending in `.*`. A prefix typed with its dot but
 * without the star (`users.`) is taken as the prefix it plainly is.
 */
export function actionPattern(text: string): string {
  const trimmed = text.trim();
  return trimmed.endsWith('.') ? `${trimmed}*` : trimmed;
}

/** Only the filters that are set, times as ISO-8601. */
export function eventQuery(filters: EventFilters): EventQuery {
  const query: EventQuery = {};
  if (filters.actor.trim()) query.actor = filters.actor.trim();
  if (filters.action.trim()) query.action = actionPattern(filters.action);
  if (filters.targetType.trim()) query.targetType = filters.targetType.trim();
  if (filters.targetId.trim()) query.targetId = filters.targetId.trim();
  if (filters.outcome) query.outcome = filters.outcome;
  if (filters.from) query.from = new Date(filters.from).toISOString();
  if (filters.to) query.to = new Date(filters.to).toISOString();
  return query;
}

const OUTCOMES = ['success', 'failure'] as const;

/**
 * The filters the address holds (`/audit?action=auth.login.failed`, as notifications link to it), so
 * a link, a reload or a shared address shows the same events; an unknown outcome is no filter.
 */
export function eventFiltersFrom(params: URLSearchParams): EventFilters {
  const filters = { ...NO_EVENT_FILTERS };
  for (const name of AUDIT_EVENT_FILTERS) {
    const value = params.get(name) ?? '';
    if (name === 'outcome') filters.outcome = OUTCOMES.find((outcome) => outcome === value) ?? '';
    else filters[name] = value;
  }
  return filters;
}

/** The address's parameters with these filters in place of the old ones, back on the first page. */
export function withEventFilters(params: URLSearchParams, filters: EventFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of AUDIT_EVENT_FILTERS) {
    if (filters[name]) next.set(name, filters[name]);
    else next.delete(name);
  }
  next.delete('page');
  return next;
}
