import { describe, expect, it } from 'vitest';
import { encodeExposition } from '../../src/core/metrics/exposition.js';
import { Metrics } from '../../src/core/metrics/registry.js';

describe('the Prometheus text exposition', () => {
  it('writes HELP and TYPE once per family, then its samples', () => {
    const text = encodeExposition([
      {
        name: 'jobs_total',
        help: 'Jobs',
        type: 'counter',
        samples: [{ labels: { job: 'a' }, value: 2 }, { value: 1 }],
      },
    ]);
    expect(text).toBe(
      '# HELP jobs_total Jobs\n# TYPE jobs_total counter\njobs_total{job="a"} 2\njobs_total 1\n',
    );
  });

  it('escapes backslashes, quotes and line feeds in label values, and backslashes and line feeds in HELP', () => {
    const text = encodeExposition([
      { name: 'x', help: 'a\\b\nc "q"', type: 'gauge', samples: [{ labels: { v: 'a\\b"c\nd' }, value: 1 }] },
    ]);
    expect(text).toBe('# HELP x a\\\\b\\nc "q"\n# TYPE x gauge\nx{v="a\\\\b\\"c\\nd"} 1\n');
  });

  it('writes infinities and NaN as Prometheus reads them', () => {
    const samples = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN].map((value) => ({
      value,
    }));
    expect(encodeExposition([{ name: 'x', help: 'h', type: 'gauge', samples }])).toContain(
      'x +Inf\nx -Inf\nx NaN\n',
    );
  });

  it('leaves out a family without samples', () => {
    expect(encodeExposition([{ name: 'x', help: 'h', type: 'gauge', samples: [] }])).toBe('');
  });

  it('refuses an invalid metric name, an invalid label name and a family written twice', () => {
    const family = { name: 'x', help: 'h', type: 'gauge' as const, samples: [{ value: 1 }] };
    expect(() => encodeExposition([{ ...family, name: 'a-b' }])).toThrow(/metric name/);
    expect(() => encodeExposition([{ ...family, samples: [{ labels: { 'a-b': '1' }, value: 1 }] }])).toThrow(
      /label/,
    );
    expect(() => encodeExposition([family, family])).toThrow(/twice/);
  });
});

describe('the metrics registry', () => {
  it('writes a histogram with cumulative buckets, +Inf, sum and count', async () => {
    const metrics = new Metrics();
    const histogram = metrics.histogram('d_seconds', 'd', ['route'], [0.1, 1]);
    for (const value of [0.05, 0.5, 5]) histogram.observe({ route: '/a' }, value);
    const text = await metrics.render();
    expect(text).toContain(
      [
        'd_seconds_bucket{route="/a",le="0.1"} 1',
        'd_seconds_bucket{route="/a",le="1"} 2',
        'd_seconds_bucket{route="/a",le="+Inf"} 3',
        'd_seconds_sum{route="/a"} 5.55',
        'd_seconds_count{route="/a"} 3',
      ].join('\n'),
    );
  });

  it('keeps one series per combination of label values', async () => {
    const metrics = new Metrics();
    const counter = metrics.counter('c_total', 'c', ['a', 'b']);
    counter.inc({ a: '1', b: '2' });
    counter.inc({ b: '2', a: '1' }, 2);
    counter.inc({ a: '1', b: '3' });
    const text = await metrics.render();
    expect(text).toContain('c_total{a="1",b="2"} 3\nc_total{a="1",b="3"} 1\n');
  });

  it('leaves out a failing collector and reports it down, keeping the rest', async () => {
    const metrics = new Metrics();
    metrics.collect({
      name: 'broken',
      collect: async () => {
        throw new Error('database down');
      },
    });
    metrics.collect({
      name: 'fine',
      collect: () => [{ name: 'ok', help: 'h', type: 'gauge', samples: [{ value: 1 }] }],
    });
    const text = await metrics.render();
    expect(text).toContain('ok 1\n');
    expect(text).toContain('infragate_metrics_collector_up{collector="broken"} 0\n');
    expect(text).toContain('infragate_metrics_collector_up{collector="fine"} 1\n');
  });
});
