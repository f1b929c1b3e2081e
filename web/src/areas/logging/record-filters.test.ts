import { describe, expect, it } from 'vitest';
import { NO_FILTERS, parseFieldFilter, searchQuery, tailQuery, tailUrl } from './record-filters';

describe('record filters', () => {
  it('reads a field filter as name and value, the value keeping any later equals sign', () => {
    expect(parseFieldFilter('route=/pay?a=b')).toEqual(['route', '/pay?a=b']);
  });

  it('refuses a field filter without a name', () => {
    expect(parseFieldFilter('=5')).toBeUndefined();
    expect(parseFieldFilter('route')).toBeUndefined();
  });

  it('sends only the filters that are set, levels comma-separated and fields as field.<name>', () => {
    expect(
      tailQuery({ ...NO_FILTERS, q: ' timeout ', levels: ['warn', 'error'], fields: ['status=500', 'junk'] }),
    ).toEqual({ q: 'timeout', level: 'warn,error', 'field.status': '500' });
  });

  it('starts the search the chosen range before now', () => {
    const now = Date.parse('2026-11-25T12:00:00.000Z');
    expect(searchQuery({ ...NO_FILTERS, range: '1h' }, now)).toEqual({ from: '2026-11-25T11:00:00.000Z' });
  });

  it('puts the filters in the tail address', () => {
    expect(tailUrl('env 1', { ...NO_FILTERS, service: 'api' })).toBe(
      '/api/logging/environments/env%201/tail?service=api',
    );
  });
});
