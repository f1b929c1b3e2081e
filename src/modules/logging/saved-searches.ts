import { and, asc, count, eq } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { notFound } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import type { DbOrTx } from '../../db/client.js';
import { loggingSavedSearches } from '../../db/schema/index.js';
import type { LogEnvironmentService } from './environments.js';
import { checkSavedQuery } from './saved-query.js';
import type {
  NewSavedSearch,
  SavedSearch,
  SavedSearchChanges,
  SavedSearchListQuery,
} from './saved-search-schemas.js';

const columns = {
  id: loggingSavedSearches.id,
  environmentId: loggingSavedSearches.environmentId,
  name: loggingSavedSearches.name,
  query: loggingSavedSearches.query,
  createdAt: loggingSavedSearches.createdAt,
  updatedAt: loggingSavedSearches.updatedAt,
};

/** Searches of one environment kept under a name; they go when their environment goes. */
export class SavedSearches {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit'> & {
      environments: Pick<LogEnvironmentService, 'getEnvironment'>;
    },
  ) {}

  async list(environmentId: string, query: SavedSearchListQuery) {
    await this.deps.environments.getEnvironment(environmentId);
    const where = eq(loggingSavedSearches.environmentId, environmentId);
    return fetchPage(
      query,
      ({ limit, offset }) =>
        this.deps.db
          .select(columns)
          .from(loggingSavedSearches)
          .where(where)
          .orderBy(asc(loggingSavedSearches.name))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(loggingSavedSearches).where(where),
    );
  }

  /** One saved search of the environment (404 when it is another environment's). */
  async get(environmentId: string, id: string, db: DbOrTx = this.deps.db): Promise<SavedSearch> {
    const [row] = isUuid(id)
      ? await db
          .select(columns)
          .from(loggingSavedSearches)
          .where(and(eq(loggingSavedSearches.environmentId, environmentId), eq(loggingSavedSearches.id, id)))
      : [];
    if (!row) throw notFound({ savedSearchId: id });
    return row;
  }

  async create(actor: AuditActor, environmentId: string, input: NewSavedSearch): Promise<SavedSearch> {
    const name = trimmedName(input.name);
    checkSavedQuery(input.query, ['query']);
    return this.deps.db.transaction(async (tx) => {
      await this.deps.environments.getEnvironment(environmentId, tx);
      const [row] = (await conflictOnDuplicate(
        tx
          .insert(loggingSavedSearches)
          .values({ environmentId, name, query: input.query })
          .returning(columns),
        'SAVED_SEARCH_NAME_TAKEN',
        { name },
      )) as SavedSearch[];
      await this.deps.audit.record(tx, actor, {
        action: 'logging.saved_search.created',
        targetType: 'saved_search',
        targetId: row!.id,
        metadata: { environmentId, name, query: input.query },
      });
      return row!;
    });
  }

  async update(
    actor: AuditActor,
    environmentId: string,
    id: string,
    input: SavedSearchChanges,
  ): Promise<SavedSearch> {
    const name = input.name === undefined ? undefined : trimmedName(input.name);
    if (input.query) checkSavedQuery(input.query, ['query']);
    return this.deps.db.transaction(async (tx) => {
      await this.get(environmentId, id, tx);
      await conflictOnDuplicate(
        tx
          .update(loggingSavedSearches)
          .set({
            ...(name !== undefined ? { name } : {}),
            ...(input.query ? { query: input.query } : {}),
            updatedAt: new Date(),
          })
          .where(eq(loggingSavedSearches.id, id)),
        'SAVED_SEARCH_NAME_TAKEN',
        { name },
      );
      const saved = await this.get(environmentId, id, tx);
      await this.deps.audit.record(tx, actor, {
        action: 'logging.saved_search.updated',
        targetType: 'saved_search',
        targetId: id,
        metadata: { environmentId, changed: Object.keys(input).sort(), name: saved.name, query: saved.query },
      });
      return saved;
    });
  }

  async remove(actor: AuditActor, environmentId: string, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const saved = await this.get(environmentId, id, tx);
      await tx.delete(loggingSavedSearches).where(eq(loggingSavedSearches.id, id));
      await this.deps.audit.record(tx, actor, {
        action: 'logging.saved_search.deleted',
        targetType: 'saved_search',
        targetId: id,
        metadata: { environmentId, name: saved.name },
      });
    });
  }
}
