import { encodeExposition, type Labels, type MetricFamily, type Sample } from './exposition.js';

/** Label values of one series, in the order the metric names its labels. */
type LabelValues<L extends string> = Readonly<Record<L, string>>;

interface Series<L extends string> {
  labels: LabelValues<L>;
}

/**
 * The series of one metric, one per combination of label values. Callers pass only values from
 * closed sets (route templates, status classes, job names, outcomes), so the number stays bounded.
 */
abstract class Metric<L extends string, S extends Series<L>> {
  protected readonly series = new Map<string, S>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
  ) {}

  protected seriesOf(labels: LabelValues<L>): S {
    const key = this.labelNames.map((name) => labels[name]).join('\u0000');
    let found = this.series.get(key);
    if (!found) {
      found = this.create(labels);
      this.series.set(key, found);
    }
    return found;
  }

  protected abstract create(labels: LabelValues<L>): S;
  abstract family(): MetricFamily;
}

interface CounterSeries<L extends string> extends Series<L> {
  value: number;
}

/** A count that only goes up while the process lives (Prometheus computes rates from it). */
export class Counter<L extends string = never> extends Metric<L, CounterSeries<L>> {
  inc(labels: LabelValues<L>, by = 1): void {
    this.seriesOf(labels).value += by;
  }

  protected create(labels: LabelValues<L>): CounterSeries<L> {
    return { labels, value: 0 };
  }

  family(): MetricFamily {
    const samples = [...this.series.values()].map(({ labels, value }) => ({ labels, value }));
    return { name: this.name, help: this.help, type: 'counter', samples };
  }
}

interface HistogramSeries<L extends string> extends Series<L> {
  /** Observations per bucket (not cumulative; the exposition adds them up). */
  counts: number[];
  sum: number;
  count: number;
}

/** Observations (durations) counted in fixed buckets, with their sum and count. */
export class Histogram<L extends string = never> extends Metric<L, HistogramSeries<L>> {
  constructor(
    name: string,
    help: string,
    labelNames: readonly L[],
    private readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames);
  }

  observe(labels: LabelValues<L>, value: number): void {
    const series = this.seriesOf(labels);
    let index = this.buckets.findIndex((bound) => value <= bound);
    if (index === -1) index = this.buckets.length;
    series.counts[index]! += 1;
    series.sum += value;
    series.count += 1;
  }

  protected create(labels: LabelValues<L>): HistogramSeries<L> {
    return { labels, counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
  }

  family(): MetricFamily {
    const samples: Sample[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      for (const [index, bound] of [...this.buckets, Number.POSITIVE_INFINITY].entries()) {
        cumulative += counts[index]!;
        const le = bound === Number.POSITIVE_INFINITY ? '+Inf' : String(bound);
        samples.push({ suffix: '_bucket', labels: { ...labels, le }, value: cumulative });
      }
      samples.push({ suffix: '_sum', labels, value: sum }, { suffix: '_count', labels, value: count });
    }
    return { name: this.name, help: this.help, type: 'histogram', samples };
  }
}

/** Families read when scraped (a count in the database, the process's memory), named for its health metric. */
export interface Collector {
  name: string;
  collect(): MetricFamily[] | Promise<MetricFamily[]>;
}

/** A gauge family from plain values, for collectors. */
export function gauge(
  name: string,
  help: string,
  samples: { labels?: Labels; value: number }[],
): MetricFamily {
  return { name, help, type: 'gauge', samples };
}

/**
 * The gateway's metrics: counters and histograms kept in the process, and collectors read at each
 * scrape. A collector that fails (its database query, say) leaves its families out of that scrape
 * and says so in `infragate_metrics_collector_up`, so the rest is still scraped.
 */
export class Metrics {
  private readonly metrics: Metric<string, Series<string>>[] = [];
  private readonly collectors: Collector[] = [];

  counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    const counter = new Counter<L>(name, help, labelNames);
    this.metrics.push(counter as unknown as Metric<string, Series<string>>);
    return counter;
  }

  histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: readonly number[],
  ): Histogram<L> {
    const histogram = new Histogram<L>(name, help, labelNames, buckets);
    this.metrics.push(histogram as unknown as Metric<string, Series<string>>);
    return histogram;
  }

  collect(collector: Collector): void {
    this.collectors.push(collector);
  }

  async render(): Promise<string> {
    const outcomes = await Promise.allSettled(this.collectors.map(async (collector) => collector.collect()));
    const families = this.metrics.map((metric) => metric.family());
    const up: { labels: Labels; value: number }[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      up.push({
        labels: { collector: this.collectors[index]!.name },
        value: outcome.status === 'fulfilled' ? 1 : 0,
      });
      if (outcome.status === 'fulfilled') families.push(...outcome.value);
    }
    families.push(
      gauge(
        'infragate_metrics_collector_up',
        'Whether a collector answered in this scrape (1) or failed (0)',
        up,
      ),
    );
    return encodeExposition(families);
  }
}
