import { describe, expect, it } from 'vitest';
import {
  MAX_FIELD_NAME_LENGTH,
  MAX_MESSAGE_LENGTH,
  parseJsonRecord,
} from '../../src/modules/logging/record-input.js';

// One JSON record of POST /api/logging/ingest as ingest reads it, before any environment's rules.
const RECEIVED = new Date('2026-11-25T12:00:00.000Z');
const parse = (input: unknown) => parseJsonRecord(input, RECEIVED);
const recordOf = (input: unknown) => {
  const result = parse(input);
  if ('issues' in result) throw new Error(`refused: ${JSON.stringify(result.issues)}`);
  return result.record;
};
const issuesOf = (input: unknown) => {
  const result = parse(input);
  return 'issues' in result ? result.issues : [];
};

/** An object `levels` deep: 1 is `{}`, 2 is `{a: {}}`. */
const nested = (levels: number): Record<string, unknown> => (levels <= 1 ? {} : { a: nested(levels - 1) });

describe('a record', () => {
  it('is a JSON object', () => {
    for (const input of [null, 'text', 7, [{ message: 'm' }]])
      expect(issuesOf(input)).toEqual([{ path: [], message: 'must be a JSON object' }]);
  });

  it('takes defaults for all but its message: the arrival time, level info, no service, no trace', () => {
    expect(recordOf({ message: 'started' })).toEqual({
      occurredAt: RECEIVED,
      level: 'info',
      message: 'started',
      service: null,
      traceId: null,
      spanId: null,
      fields: {},
    });
  });

  it('needs a message, which is text', () => {
    expect(issuesOf({})).toEqual([{ path: ['message'], message: 'is required' }]);
    expect(issuesOf({ message: 7 })).toEqual([{ path: ['message'], message: 'must be a string' }]);
  });

  it('names every problem at once', () => {
    expect(issuesOf({ level: 'loud', traceId: 'x' }).map((issue) => issue.path)).toEqual([
      ['level'],
      ['message'],
      ['traceId'],
    ]);
  });
});

describe('the length of message and service', () => {
  it(`takes a message of ${MAX_MESSAGE_LENGTH} characters and refuses one more`, () => {
    expect(recordOf({ message: 'm'.repeat(MAX_MESSAGE_LENGTH) }).message).toHaveLength(MAX_MESSAGE_LENGTH);
    expect(issuesOf({ message: 'm'.repeat(MAX_MESSAGE_LENGTH + 1) })).toEqual([
      { path: ['message'], message: `must be at most ${MAX_MESSAGE_LENGTH} characters` },
    ]);
  });

  it('takes a service of 255 characters and refuses one more', () => {
    expect(recordOf({ message: 'm', service: 's'.repeat(255) }).service).toHaveLength(255);
    expect(issuesOf({ message: 'm', service: 's'.repeat(256) })).toEqual([
      { path: ['service'], message: 'must be at most 255 characters' },
    ]);
  });
});

describe('the timestamp', () => {
  it('reads RFC 3339 with any offset and fraction, and epoch milliseconds', () => {
    expect(recordOf({ message: 'm', timestamp: '2026-11-25T10:00:00.5+02:00' }).occurredAt).toEqual(
      new Date('2026-11-25T08:00:00.500Z'),
    );
    expect(recordOf({ message: 'm', timestamp: '2026-11-25 08:00:00z' }).occurredAt).toEqual(
      new Date('2026-11-25T08:00:00Z'),
    );
    expect(recordOf({ message: 'm', timestamp: 1_764_057_600_000 }).occurredAt).toEqual(
      new Date(1_764_057_600_000),
    );
  });

  it('keeps millisecond precision, cutting finer fractions', () => {
    expect(recordOf({ message: 'm', timestamp: 1_000.9 }).occurredAt.getTime()).toBe(1_000);
    expect(recordOf({ message: 'm', timestamp: '2026-11-25T08:00:00.123999Z' }).occurredAt).toEqual(
      new Date('2026-11-25T08:00:00.123Z'),
    );
  });

  it('takes the instants a date holds, ±8.64e15 ms, and refuses one past them', () => {
    expect(recordOf({ message: 'm', timestamp: 8.64e15 }).occurredAt.getTime()).toBe(8.64e15);
    expect(recordOf({ message: 'm', timestamp: -8.64e15 }).occurredAt.getTime()).toBe(-8.64e15);
    for (const timestamp of [8.64e15 + 1, -8.64e15 - 1])
      expect(issuesOf({ message: 'm', timestamp })).toEqual([
        { path: ['timestamp'], message: 'must be an RFC 3339 date-time or epoch milliseconds' },
      ]);
  });

  it('refuses a day the month does not have, and takes the 29th of February of a leap year', () => {
    expect(issuesOf({ message: 'm', timestamp: '2026-02-31T00:00:00Z' })).toHaveLength(1);
    expect(issuesOf({ message: 'm', timestamp: '2026-02-29T00:00:00Z' })).toHaveLength(1);
    expect(recordOf({ message: 'm', timestamp: '2024-02-29T00:00:00Z' }).occurredAt).toEqual(
      new Date('2024-02-29T00:00:00Z'),
    );
  });

  it('reads the last day of a month in its own offset, though in UTC it is the next month', () => {
    expect(recordOf({ message: 'm', timestamp: '2024-02-29T23:30:00-01:00' }).occurredAt).toEqual(
      new Date('2024-03-01T00:30:00Z'),
    );
  });

  it.each(['2026-11-25', '2026-11-25T08:00:00', '25/11/2026 08:00', 'now', '', true])(
    'refuses %j',
    (timestamp) => {
      expect(issuesOf({ message: 'm', timestamp })).toEqual([
        { path: ['timestamp'], message: 'must be an RFC 3339 date-time or epoch milliseconds' },
      ]);
    },
  );
});

describe('the level', () => {
  it.each([
    ['WARN', 'warn'],
    ['warning', 'warn'],
    [' Critical ', 'fatal'],
    [0, 'fatal'],
    [3, 'error'],
    [7, 'debug'],
  ])('reads %j as %s', (level, expected) => {
    expect(recordOf({ message: 'm', level }).level).toBe(expected);
  });

  it.each(['loud', 8, -1, 2.5, null])('refuses %j', (level) => {
    expect(issuesOf({ message: 'm', level })).toEqual([
      {
        path: ['level'],
        message: 'must be one of trace, debug, info, warn, error, fatal or a syslog severity 0–7',
      },
    ]);
  });
});

describe('trace context', () => {
  it('takes a trace id of 32 and a span id of 16 hexadecimal characters, lowercased', () => {
    const record = recordOf({ message: 'm', traceId: 'AB'.repeat(16), spanId: 'cd'.repeat(8) });
    expect([record.traceId, record.spanId]).toEqual(['ab'.repeat(16), 'cd'.repeat(8)]);
  });

  it('reads an empty id as none', () => {
    expect(recordOf({ message: 'm', traceId: '', spanId: null })).toMatchObject({
      traceId: null,
      spanId: null,
    });
  });

  it.each([
    ['traceId', 'a'.repeat(31), 32],
    ['traceId', 'a'.repeat(33), 32],
    ['traceId', 'g'.repeat(32), 32],
    ['spanId', 'a'.repeat(15), 16],
    ['spanId', 'a'.repeat(17), 16],
    ['spanId', 1234567890123456, 16],
  ])('refuses the %s %j', (name, id, length) => {
    expect(issuesOf({ message: 'm', [name]: id })).toEqual([
      { path: [name], message: `must be ${length} hexadecimal characters` },
    ]);
  });
});

describe('fields', () => {
  it('are the properties of `fields` and every property that is no core one', () => {
    expect(recordOf({ message: 'm', fields: { a: 1 }, b: { c: [true] } }).fields).toEqual({
      a: 1,
      b: { c: [true] },
    });
  });

  it('refuses a name given both inside and outside `fields`', () => {
    expect(issuesOf({ message: 'm', fields: { user: 'a' }, user: 'b' })).toEqual([
      { path: ['user'], message: 'is given both inside and outside `fields`' },
    ]);
  });

  it('refuses a `fields` that is no object', () => {
    expect(issuesOf({ message: 'm', fields: ['a'] })).toEqual([
      { path: ['fields'], message: 'must be an object' },
    ]);
  });

  it(`take names of 1 to ${MAX_FIELD_NAME_LENGTH} characters`, () => {
    const longest = 'f'.repeat(MAX_FIELD_NAME_LENGTH);
    expect(Object.keys(recordOf({ message: 'm', [longest]: 1 }).fields)).toEqual([longest]);
    const rule = `field names are 1–${MAX_FIELD_NAME_LENGTH} characters`;
    expect(issuesOf({ message: 'm', [`${longest}f`]: 1 })).toEqual([
      { path: [`${longest}f`], message: rule },
    ]);
    expect(issuesOf({ message: 'm', fields: { '': 1 } })).toEqual([{ path: ['fields', ''], message: rule }]);
  });

  it('take values nested 32 levels deep and refuse 33', () => {
    expect(recordOf({ message: 'm', deep: nested(32) }).fields.deep).toEqual(nested(32));
    expect(issuesOf({ message: 'm', fields: { deep: nested(33) } })).toEqual([
      { path: ['fields', 'deep', ...Array(32).fill('a')], message: 'nests deeper than 32 levels' },
    ]);
  });

  it('keep a field named __proto__ as a field', () => {
    const fields = recordOf(JSON.parse('{"message":"m","__proto__":{"admin":true}}')).fields;
    expect(Object.keys(fields)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
  });
});

describe('text PostgreSQL cannot store', () => {
  it('refuses the NUL character in the message, a field value and a field name, naming where', () => {
    expect(issuesOf({ message: 'a\u0000b' })).toEqual([
      { path: ['message'], message: 'must not contain the NUL character' },
    ]);
    expect(issuesOf({ message: 'm', user: { names: ['ok', 'x\u0000'] } })).toEqual([
      { path: ['user', 'names', 1], message: 'must not contain the NUL character' },
    ]);
    expect(issuesOf({ message: 'm', user: { 'a\u0000': 1 } })).toEqual([
      { path: ['user', 'a\u0000'], message: 'has a key that must not contain the NUL character' },
    ]);
  });

  it('refuses an unpaired UTF-16 surrogate and takes a paired one', () => {
    expect(issuesOf({ message: 'x\uD800' })).toEqual([
      { path: ['message'], message: 'must not contain an unpaired UTF-16 surrogate' },
    ]);
    expect(issuesOf({ message: 'm', service: '\uDC00x' })).toHaveLength(1);
    expect(recordOf({ message: 'deployed 🚀' }).message).toBe('deployed 🚀');
  });
});
