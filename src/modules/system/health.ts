import { sql } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import { AppError } from '../../core/errors.js';
import type { Status } from './schemas.js';

/** What load balancers and orchestrators ask: is the process up, does its database answer. */
export class HealthService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  live(): Status {
    return { status: 'ok' };
  }

  /** 503 while the database does not answer, so traffic goes to another instance. */
  async ready(): Promise<Status> {
    try {
      await this.deps.db.execute(sql`select 1`);
    } catch {
      throw new AppError('INTERNAL_ERROR', { reason: 'DATABASE_UNAVAILABLE' }, 'Database unavailable', 503);
    }
    return { status: 'ready' };
  }
}
