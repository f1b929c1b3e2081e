import { describe, expect, it } from 'vitest';
import { readFilter } from '../../src/modules/logging/record-filters.js';

// The filter of a search, facets, histogram or tail query string, as the route hands it over.
const fieldParameters = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`field.f${i}`, `v${i}`]));
const refusal = (issues: { path: string[]; message: string }[]) =>
  expect.objectContaining({ statusCode: 400, details: issues });

describe('a record filter', () => {
  it('reads the time window, the levels, the service, the text and the field values', () => {
    expect(
      readFilter({
        from: '2026-11-25T00:00:00Z',
        to: '2026-11-26T00:00:00Z',
        level: 'Warn, error,warn',
        service: 'api',
        q: 'timeout',
        'field.user': 'ada',
      }),
    ).toEqual({
      from: new Date('2026-11-25T00:00:00Z'),
      to: new Date('2026-11-26T00:00:00Z'),
      levels: ['warn', 'error'],
      services: ['api'],
      q: 'timeout',
      fields: [['user', 'ada']],
      excludedFields: [],
    });
  });

  it('refuses a window that does not end after it starts', () => {
    const instant = '2026-11-25T00:00:00Z';
    expect(() => readFilter({ from: instant, to: instant })).toThrow(
      refusal([{ path: ['from'], message: 'must be before `to`' }]),
    );
  });

  it('refuses a level it does not know', () => {
    expect(() => readFilter({ level: 'info,loud' })).toThrow(
      refusal([{ path: ['level'], message: 'must be levels from: trace, debug, info, warn, error, fatal' }]),
    );
  });
});

describe('field filters', () => {
  it('may be 20, and not 21', () => {
    expect(readFilter(fieldParameters(20)).fields).toHaveLength(20);
    expect(() => readFilter(fieldParameters(21))).toThrow(
      refusal([{ path: [], message: 'at most 20 field.<name> filters' }]),
    );
  });

  it('count the excluded values with the required ones', () => {
    const excluded = { ...fieldParameters(19), 'field.user!': 'bob' };
    expect(readFilter(excluded).excludedFields).toEqual([['user', 'bob']]);
    expect(() => readFilter({ ...excluded, 'field.team!': 'ops' })).toThrow(
      refusal([{ path: [], message: 'at most 20 field.<name> filters' }]),
    );
  });

  it('name fields of 1 to 200 characters', () => {
    const longest = 'f'.repeat(200);
    expect(readFilter({ [`field.${longest}`]: 'v' }).fields).toEqual([[longest, 'v']]);
    const rule = 'field names are 1–200 characters';
    expect(() => readFilter({ [`field.${longest}f`]: 'v' })).toThrow(
      refusal([{ path: [`field.${longest}f`], message: rule }]),
    );
    expect(() => readFilter({ 'field.': 'v' })).toThrow(refusal([{ path: ['field.'], message: rule }]));
  });
});
