import type { FastifyBaseLogger } from 'fastify';

export interface JobSpec {
  name: string;
  intervalMs: number;
  run: () => Promise<void>;
}

/**
 * Periodic background work (exports, health checks, sweeps). A job never overlaps itself; a failing
 * run is logged and the next one goes on schedule. Jobs start when the server listens and stop
 * (waiting for a run in progress) when it closes.
 */
export class BackgroundJobs {
  private readonly jobs: JobSpec[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<void>>();
  private started = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  register(job: JobSpec): void {
    this.jobs.push(job);
    if (this.started) this.schedule(job);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs) this.schedule(job);
  }

  /** Runs a job now (if it is not already running) and resolves when that run ends. */
  runNow(name: string): Promise<void> {
    const job = this.jobs.find((candidate) => candidate.name === name);
    if (!job) return Promise.reject(new Error(`no background job named ${name}`));
    return this.runOnce(job);
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled(this.running.values());
  }

  private schedule(job: JobSpec): void {
    const timer = setTimeout(async () => {
      await this.runOnce(job);
      if (this.started) this.schedule(job);
    }, job.intervalMs);
    timer.unref();
    this.timers.set(job.name, timer);
  }

  private runOnce(job: JobSpec): Promise<void> {
    const inFlight = this.running.get(job.name);
    if (inFlight) return inFlight;
    const run = job
      .run()
      .catch((error: unknown) => this.log.error({ err: error, job: job.name }, 'background job failed'))
      .finally(() => this.running.delete(job.name));
    this.running.set(job.name, run);
    return run;
  }
}
