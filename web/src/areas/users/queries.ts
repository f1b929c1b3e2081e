import { useQueries, useQuery } from '@tanstack/react-query';
import type { ResourceArea } from '../../../../src/core/auth/scopes';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { mayAccess } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import type { ResourceChoice } from './scope-suggestions';

export type User = Answer<'/api/admin/users', 'get'>['data'][number];
export type Group = Answer<'/api/admin/groups', 'get'>['data'][number];

/** The users area's places in the query cache; a change invalidates `ADMIN_KEY` (users and groups). */
export const ADMIN_KEY = ['admin'];
export const USERS_KEY = ['admin', 'users'];
const GROUPS_KEY = ['admin', 'groups'];

/** Every group (the API answers them all at once; an installation has a handful). */
export function useGroups() {
  return useQuery({ queryKey: GROUPS_KEY, queryFn: () => call(api.GET('/api/admin/groups')) });
}

const FIRST_PAGE = { limit: 100 };

/** The first page of each area's resources, as choices for resource scopes. */
const RESOURCE_LISTS: Record<ResourceArea, () => Promise<{ data: { id: string; name: string }[] }>> = {
  containerhost: () => call(api.GET('/api/containerhost/nodes', { params: { query: FIRST_PAGE } })),
  databases: () => call(api.GET('/api/databases', { params: { query: FIRST_PAGE } })),
  logging: () => call(api.GET('/api/logging/environments', { params: { query: FIRST_PAGE } })),
  pages: () => call(api.GET('/api/pages', { params: { query: FIRST_PAGE } })),
  nodes: () => call(api.GET('/api/nodes', { params: { query: FIRST_PAGE } })),
  certificates: () => call(api.GET('/api/ssl-certificates', { params: { query: FIRST_PAGE } })),
  integrations: () =>
    call(api.GET('/api/integrations/repohost/connectors', { params: { query: FIRST_PAGE } })),
  inference: () => call(api.GET('/api/inference/connections', { params: { query: FIRST_PAGE } })),
};

/**
 * The resources of every area the signed-in admin can see (the first hundred of each), for the
 * scopes box to offer scopes naming one of them; an area the admin cannot see offers none.
 */
export function useResourceChoices(): ResourceChoice[] {
  const { scopes } = useCurrentUser();
  const areas = (Object.keys(RESOURCE_LISTS) as ResourceArea[]).filter((area) =>
    mayAccess(scopes, { anyOf: [`${area}:view`] }),
  );
  const lists = useQueries({
    queries: areas.map((area) => ({
      queryKey: [...ADMIN_KEY, 'resource-choices', area],
      queryFn: RESOURCE_LISTS[area],
      staleTime: 60_000,
    })),
  });
  return lists.flatMap((list, index) =>
    (list.data?.data ?? []).map(({ id, name }) => ({ area: areas[index]!, id, name })),
  );
}
