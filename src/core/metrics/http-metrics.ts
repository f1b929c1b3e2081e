import type { Counter, Histogram, Metrics } from './registry.js';

/** Latency buckets, in seconds: from a cached read (a few ms) to a slow engine call. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type RequestLabels = 'method' | 'route' | 'status_class';

/**
 * Requests per route template (`/api/containerhost/nodes/:nodeId`, never the path a client sent)
 * and status class (`2xx` … `5xx`), so the series stay as many as the routes: a request that no
 * route answered is counted under `route="unmatched"`.
 */
export class HttpMetrics {
  private readonly requests: Counter<RequestLabels>;
  private readonly durations: Histogram<RequestLabels>;

  constructor(metrics: Metrics) {
    this.requests = metrics.counter(
      'infragate_http_requests_total',
      'HTTP requests answered, per route template and status class',
      ['method', 'route', 'status_class'],
    );
    this.durations = metrics.histogram(
      'infragate_http_request_duration_seconds',
      'Time to answer an HTTP request, per route template and status class, in seconds',
      ['method', 'route', 'status_class'],
      DURATION_BUCKETS,
    );
  }

  answered(method: string, route: string | undefined, status: number, milliseconds: number): void {
    const labels = { method, route: route ?? 'unmatched', status_class: `${Math.floor(status / 100)}xx` };
    this.requests.inc(labels);
    this.durations.observe(labels, milliseconds / 1000);
  }
}
