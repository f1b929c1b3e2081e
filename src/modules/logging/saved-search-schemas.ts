import { type Static, Type } from 'typebox';
import { Name, NamedObject, Timestamp, Uuid } from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { SavedQuery } from './saved-query.js';

/** The shapes of saved searches. */

export const SavedSearchParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255 }),
  searchId: Type.String({ minLength: 1, maxLength: 255 }),
});
export const NewSavedSearch = Type.Object({ name: Name, query: SavedQuery });
export const SavedSearchChanges = Type.Object(
  { name: Type.Optional(Name), query: Type.Optional(SavedQuery) },
  { minProperties: 1 },
);
export const SavedSearch = NamedObject('SavedLogSearch', {
  id: Uuid(),
  environmentId: Uuid(),
  name: Type.String(),
  query: SavedQuery,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export const SavedSearchListQuery = Type.Object({ ...PaginationQueryFields });

export type NewSavedSearch = Static<typeof NewSavedSearch>;
export type SavedSearchChanges = Static<typeof SavedSearchChanges>;
export type SavedSearch = Static<typeof SavedSearch>;
export type SavedSearchListQuery = Static<typeof SavedSearchListQuery>;
