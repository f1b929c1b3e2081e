import type { BackgroundJobs } from '../background-jobs.js';
import type { MetricFamily } from './exposition.js';
import { type Collector, gauge } from './registry.js';

/**
 * The background jobs as this process saw them: runs by outcome, and lag, the time a job run here
 * is overdue (since its last run ended, or since the running one started, beyond its interval).
 * A job whose lease another process holds reports no lag here: that process reports it.
 */
export function jobsCollector(jobs: BackgroundJobs): Collector {
  return {
    name: 'jobs',
    collect(): MetricFamily[] {
      const now = Date.now();
      const stats = jobs.stats();
      const here = stats.filter((job) => job.runsHere && job.lastRunAt !== undefined);
      return [
        {
          name: 'infragate_job_runs_total',
          help: 'Background job runs in this process, by outcome',
          type: 'counter',
          samples: stats.flatMap((job) => [
            { labels: { job: job.name, outcome: 'succeeded' }, value: job.succeeded },
            { labels: { job: job.name, outcome: 'failed' }, value: job.failed },
          ]),
        },
        gauge(
          'infragate_job_lag_seconds',
          'How long a job run by this process is overdue beyond its interval, in seconds (0: on time)',
          here.map((job) => ({
            labels: { job: job.name },
            value: Math.max(0, now - job.lastRunAt! - job.intervalMs) / 1000,
          })),
        ),
        gauge(
          'infragate_job_running',
          'Whether a run of the job is in progress in this process',
          stats.map((job) => ({ labels: { job: job.name }, value: job.running ? 1 : 0 })),
        ),
        gauge(
          'infragate_job_runs_here',
          'Whether this process runs the job (every instance does, or it holds the lease)',
          stats.map((job) => ({ labels: { job: job.name }, value: job.runsHere ? 1 : 0 })),
        ),
      ];
    },
  };
}
