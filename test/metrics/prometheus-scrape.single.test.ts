import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logStore } from '../logging/log-store.js';
import { type PrometheusServer, prometheusBinary, startPrometheus } from '../services/prometheus.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const { skipReason } = prometheusBinary();
const METRICS_TOKEN = 'metrics-token-for-the-test-scraper-0123456789';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ metricsToken: METRICS_TOKEN });
});
afterAll(() => gateway?.close());

describe.skipIf(skipReason)(
  `GET /metrics scraped by Prometheus${skipReason ? ` (${skipReason})` : ''}`,
  () => {
    let prometheus: PrometheusServer;
    let environmentId: string;

    /** The value of the only series an expression selects, as Prometheus answers it (once it has it). */
    const valueAt = async (expression: string) => {
      const [series] = await eventually(async () => {
        const result = await prometheus.query(expression);
        return result.length > 0 && result;
      }, `a series for ${expression}`);
      return Number(series!.value[1]);
    };

    beforeAll(async () => {
      const base = new URL(await gateway.listen());
      prometheus = await startPrometheus({
        target: base.host,
        bearerToken: METRICS_TOKEN,
        intervalSeconds: 1,
      });
      const logs = logStore(gateway);
      environmentId = (await logs.environment()).id;
      const ingestToken = await logs.token(environmentId);
      const ingested = await logs.ingest(ingestToken, [
        { message: 'kept', level: 'info' },
        { message: 'kept too', level: 'error' },
        { message: 'refused', level: 'no-such-level' },
      ]);
      expect(ingested.status, ingested.text).toBe(200);
    });

    afterAll(() => prometheus?.stop());

    it('is scraped with the metrics token and reports the target up', async () => {
      await eventually(async () => (await prometheus.target())?.health === 'up', 'a healthy scrape');
      expect(await valueAt('up{job="infragate"}')).toBe(1);
    });

    it('labels requests with the route template and status class, never the path with its id', async () => {
      for (let i = 0; i < 3; i++)
        expect((await gateway.call('GET', `/api/logging/environments/${environmentId}`)).status).toBe(200);
      const route = '/api/logging/environments/:id';
      expect(
        await valueAt(`infragate_http_requests_total{method="GET",route="${route}",status_class="2xx"}`),
      ).toBeGreaterThanOrEqual(3);
      expect(
        await valueAt(
          `infragate_http_request_duration_seconds_count{method="GET",route="${route}",status_class="2xx"}`,
        ),
      ).toBeGreaterThanOrEqual(3);
      expect(await prometheus.query(`{job="infragate",route=~".*${environmentId}.*"}`)).toEqual([]);
    });

    it('counts a request no route answers as unmatched', async () => {
      await gateway.call('GET', `/no/such/path/${environmentId}`);
      expect(
        await valueAt('sum(infragate_http_requests_total{route="unmatched",status_class="4xx"})'),
      ).toBeGreaterThanOrEqual(1);
    });

    it('counts ingested records by outcome', async () => {
      expect(await valueAt('infragate_ingest_records_total{outcome="stored"}')).toBe(2);
      expect(await valueAt('infragate_ingest_records_total{outcome="rejected"}')).toBe(1);
    });

    it('reports background jobs, the delivery queues and the process', async () => {
      expect(await valueAt('count(infragate_job_runs_here)')).toBeGreaterThan(0);
      expect(await valueAt('infragate_siem_backlog')).toBeGreaterThanOrEqual(0);
      expect(await valueAt('infragate_notification_backlog')).toBe(0);
      expect(await valueAt('process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(await valueAt('process_cpu_seconds_total')).toBeGreaterThan(0);
      expect(await valueAt('nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
      expect(await valueAt('min(infragate_metrics_collector_up)')).toBe(1);
    });
  },
);

describe('GET /metrics access', () => {
  it('answers the text exposition format to an API token with metrics:view', async () => {
    const result = await gateway.call('GET', '/metrics', {
      token: await gateway.tokenWithScopes(['metrics:view']),
    });
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(result.text).toContain('# TYPE process_cpu_seconds_total counter');
  });

  it('answers 401 without a token and with a wrong one', async () => {
    expect((await gateway.call('GET', '/metrics', { token: null })).status).toBe(401);
    expect((await gateway.call('GET', '/metrics', { token: `${METRICS_TOKEN}x` })).status).toBe(401);
  });

  it('answers 403 to an API token without metrics:view', async () => {
    const result = await gateway.call('GET', '/metrics', {
      token: await gateway.tokenWithScopes(['logging:view']),
    });
    expect(result.status).toBe(403);
    expect(result.body.details).toMatchObject({ requiredScope: 'metrics:view' });
  });

  it('refuses the metrics token on every other route', async () => {
    expect((await gateway.call('GET', '/api/logging/environments', { token: METRICS_TOKEN })).status).toBe(
      401,
    );
  });
});

describe('background jobs on /metrics', () => {
  it('counts failed runs and reports a job overdue beyond its interval', async () => {
    gateway.deps.jobs.register({
      name: 'test.failing',
      intervalMs: 3_600_000,
      everyInstance: true,
      run: async () => {
        throw new Error('the job failed');
      },
    });
    await gateway.deps.jobs.runNow('test.failing');
    const text = (await gateway.call('GET', '/metrics')).text;
    expect(text).toContain('infragate_job_runs_total{job="test.failing",outcome="failed"} 1\n');
    expect(text).toContain('infragate_job_runs_total{job="test.failing",outcome="succeeded"} 0\n');
    expect(text).toContain('infragate_job_lag_seconds{job="test.failing"} 0\n');
    expect(text).toContain('infragate_job_runs_here{job="test.failing"} 1\n');
  });
});
