/**
 * The Prometheus text exposition format (version 0.0.4), the part the gateway needs: counters,
 * gauges, histograms and summaries with labels, each family written once with its HELP and TYPE.
 * https://prometheus.io/docs/instrumenting/exposition_formats/
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary';
export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  /** Appended to the family's name: `_bucket`, `_sum`, `_count` (histograms and summaries), or none. */
  suffix?: '_bucket' | '_sum' | '_count';
  labels?: Labels;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A label value: backslash, double quote and line feed escaped. */
const escapeLabelValue = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** HELP text: backslash and line feed escaped (quotes stay). */
const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/** Go's float formatting as Prometheus reads it: `+Inf`, `-Inf`, `NaN`, else the shortest decimal. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function formatLabels(labels: Labels | undefined): string {
  if (!labels) return '';
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries
    .map(([name, value]) => {
      if (!LABEL_NAME.test(name) || name.startsWith('__'))
        throw new Error(`invalid metric label name ${name}`);
      return `${name}="${escapeLabelValue(value)}"`;
    })
    .join(',')}}`;
}

/** The families as one exposition; a family with no samples is left out (its TYPE alone says nothing). */
export function encodeExposition(families: readonly MetricFamily[]): string {
  const seen = new Set<string>();
  let text = '';
  for (const family of families) {
    if (!NAME.test(family.name)) throw new Error(`invalid metric name ${family.name}`);
    if (seen.has(family.name)) throw new Error(`metric ${family.name} is written twice`);
    seen.add(family.name);
    if (family.samples.length === 0) continue;
    text += `# HELP ${family.name} ${escapeHelp(family.help)}\n# TYPE ${family.name} ${family.type}\n`;
    for (const sample of family.samples)
      text += `${family.name}${sample.suffix ?? ''}${formatLabels(sample.labels)} ${formatValue(sample.value)}\n`;
  }
  return text;
}
