import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';

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
