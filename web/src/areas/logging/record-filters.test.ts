import { describe, expect, it } from 'vitest';
import {
  NO_FILTERS,
  parseFieldFilter,
  type RecordFilters,
  rangeProblem,
  recordFiltersFrom,
  searchQuery,
  tailQuery,
  tailUrl,
  withFieldValue,
  withoutLevel,
  withRecordFilters,
} from './record-filters';

const FROM = '2026-11-30T14:02:00.000Z';
const TO = '2026-11-30T14:07:00.000Z';

describe('record filters', () => {
  it('reads a field filter as name and value, the value keeping any later equals sign', () => {
    expect(parseFieldFilter('route=/pay?a=b')).toEqual(['route', '/pay?a=b']);
  });

  it('refuses a field filter without a name', () => {
    expect(parseFieldFilter('=5')).toBeUndefined();
    expect(parseFieldFilter('route')).toBeUndefined();
  });

  it('sends only the filters that are set, levels comma-separated, fields as field.<name> and excluded ones as field.<name>!', () => {
    expect(
      tailQuery({
        ...NO_FILTERS,
        q: ' timeout ',
        levels: ['warn', 'error'],
        fields: ['status=500', 'junk'],
        excluded: ['route=/health'],
      }),
    ).toEqual({ q: 'timeout', level: 'warn,error', 'field.status': '500', 'field.route!': '/health' });
  });

  it('starts the search the chosen range before now', () => {
    const now = Date.parse('2026-11-25T12:00:00.000Z');
    expect(searchQuery({ ...NO_FILTERS, range: '1h' }, now)).toEqual({ from: '2026-11-25T11:00:00.000Z' });
  });

  it('searches a custom range from and to the instants given', () => {
    expect(searchQuery({ ...NO_FILTERS, range: 'custom', from: FROM, to: TO }, Date.now())).toEqual({
      from: FROM,
      to: TO,
    });
  });

  it('says why a custom range cannot be searched', () => {
    expect(rangeProblem({ ...NO_FILTERS, range: 'custom', from: TO, to: FROM })).toBe(
      'From must be before To.',
    );
    expect(rangeProblem({ ...NO_FILTERS, range: 'custom', from: FROM, to: '' })).toMatch(/Give both/);
    expect(rangeProblem({ ...NO_FILTERS, range: '1h', from: '', to: '' })).toBeUndefined();
  });

  it('puts the filters in the tail address', () => {
    expect(tailUrl('env 1', { ...NO_FILTERS, service: 'api' })).toBe(
      '/api/logging/environments/env%201/tail?service=api',
    );
  });
});

describe('the search in the address', () => {
  const everything: RecordFilters = {
    q: 'bank -retry',
    levels: ['warn', 'error'],
    service: 'payments',
    range: 'custom',
    from: FROM,
    to: TO,
    fields: ['route=/pay', 'attempt=3'],
    excluded: ['region=eu'],
  };

  it('comes back from the address as it went in', () => {
    const params = withRecordFilters(new URLSearchParams(), everything);
    expect(recordFiltersFrom(new URLSearchParams(params.toString()))).toEqual(everything);
  });

  it('keeps a preset range by its name and leaves the default out', () => {
    expect(withRecordFilters(new URLSearchParams(), { ...NO_FILTERS, range: '1h' }).toString()).toBe(
      'range=1h',
    );
    expect(withRecordFilters(new URLSearchParams(), NO_FILTERS).toString()).toBe('');
  });

  it('replaces the old search and keeps parameters that are not its own', () => {
    const params = withRecordFilters(new URLSearchParams('tab=x&field=a%3D1&q=old'), {
      ...NO_FILTERS,
      q: 'new',
    });
    expect(params.toString()).toBe('tab=x&q=new');
  });

  it('takes what the address gets wrong as no filter', () => {
    expect(
      recordFiltersFrom(new URLSearchParams('level=error,loud&range=2y&from=yesterday&to=x&field=junk')),
    ).toEqual({ ...NO_FILTERS, levels: ['error'] });
  });
});

describe('filtering on a value of a record', () => {
  it('requires the field value in place of an earlier filter or exclusion of that field', () => {
    const filters = { ...NO_FILTERS, fields: ['route=/shop', 'user=ada'], excluded: ['route=/health'] };
    expect(withFieldValue(filters, 'route', '/pay')).toMatchObject({
      fields: ['user=ada', 'route=/pay'],
      excluded: [],
    });
  });

  it('excludes the field value in place of an earlier filter of that field', () => {
    expect(withFieldValue({ ...NO_FILTERS, fields: ['route=/pay'] }, 'route', '/pay', true)).toMatchObject({
      fields: [],
      excluded: ['route=/pay'],
    });
  });

  it('excludes a level by keeping every other one', () => {
    expect(withoutLevel(NO_FILTERS, 'debug')?.levels).toEqual(['trace', 'info', 'warn', 'error', 'fatal']);
    expect(withoutLevel({ ...NO_FILTERS, levels: ['warn', 'error'] }, 'warn')?.levels).toEqual(['error']);
  });

  it('does not exclude the only level chosen (no level chosen means any level)', () => {
    expect(withoutLevel({ ...NO_FILTERS, levels: ['error'] }, 'error')).toBeUndefined();
  });
});
