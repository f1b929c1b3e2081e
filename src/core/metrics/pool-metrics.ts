import type { Database } from '../../db/client.js';
import type { MetricFamily } from './exposition.js';
import { type Collector, gauge } from './registry.js';

/** The PostgreSQL connection pool of this process; nothing for the embedded PGlite, which has no pool. */
export function poolCollector(database: Pick<Database, 'poolUse'>): Collector {
  return {
    name: 'database_pool',
    collect(): MetricFamily[] {
      const use = database.poolUse();
      if (!use) return [];
      return [
        gauge('infragate_db_pool_max_connections', 'Largest number of connections the pool opens', [
          { value: use.max },
        ]),
        gauge('infragate_db_pool_connections', 'Connections the pool holds, by state', [
          { labels: { state: 'in_use' }, value: use.open - use.idle },
          { labels: { state: 'idle' }, value: use.idle },
        ]),
        gauge('infragate_db_pool_waiting_queries', 'Queries waiting for a free connection', [
          { value: use.waiting },
        ]),
      ];
    },
  };
}
