import { describe, expect, it } from 'vitest';
import { actionPattern, eventQuery, NO_EVENT_FILTERS } from './event-filters';

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
});
