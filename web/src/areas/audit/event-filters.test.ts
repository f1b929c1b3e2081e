import { describe, expect, it } from 'vitest';
import { consolePages } from '../../../../src/core/console-pages';
import {
  actionPattern,
  eventFiltersFrom,
  eventQuery,
  NO_EVENT_FILTERS,
  withEventFilters,
} from './event-filters';

describe('audit event filters', () => {
  it('completes a prefix typed with its dot into the API pattern', () => {
    expect(actionPattern(' logging.environment. ')).toBe('logging.environment.*');
  });

  it('keeps an exact action and a pattern that already ends in .*', () => {
    expect(actionPattern('users.group.created')).toBe('users.group.created');
    expect(actionPattern('audit.siem.*')).toBe('audit.siem.*');
  });

  it('sends only the filters that are set', () => {
    expect(eventQuery({ ...NO_EVENT_FILTERS, actor: ' ops@test ', outcome: 'failure' })).toEqual({
      actor: 'ops@test',
      outcome: 'failure',
    });
  });

  it('sends times as ISO-8601', () => {
    const from = '2026-11-25T10:00';
    expect(eventQuery({ ...NO_EVENT_FILTERS, from }).from).toBe(new Date(from).toISOString());
  });

  it('reads the filters of an address the gateway links to', () => {
    const link = new URL(
      consolePages.auditEvents({ action: 'auth.login.failed', actor: 'ops@test' }),
      'http://x',
    );
    expect(eventFiltersFrom(link.searchParams)).toEqual({
      ...NO_EVENT_FILTERS,
      action: 'auth.login.failed',
      actor: 'ops@test',
    });
  });

  it('takes an unknown outcome in the address as no filter', () => {
    expect(eventFiltersFrom(new URLSearchParams('outcome=maybe')).outcome).toBe('');
  });

  it('writes the filters that are set into the address, keeps other parameters and starts on page 1', () => {
    const params = withEventFilters(new URLSearchParams('page=3&action=users.*&limit=50'), {
      ...NO_EVENT_FILTERS,
      outcome: 'failure',
    });
    expect(params.toString()).toBe('limit=50&outcome=failure');
  });
});
