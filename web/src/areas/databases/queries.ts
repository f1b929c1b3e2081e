import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';

export type Database = Answer<'/api/databases', 'get'>['data'][number];
export type DatabaseStatus = Answer<'/api/databases/{id}', 'get'>['data']['status'];
export type CommandReply = Answer<'/api/databases/{id}/keyvalue/command', 'post'>['data'];

/** The databases area's place in the query cache; a change invalidates all of it. */
export const DATABASES_KEY = ['databases'];
export const historyKey = (id: string) => ['databases', id, 'history'];

/** One database with a live check of its server (each fetch connects to it again). */
export function useDatabase(id: string) {
  return useQuery({
    queryKey: ['databases', id, 'detail'],
    queryFn: () => call(api.GET('/api/databases/{id}', { params: { path: { id } } })),
    // The live check is the point of this query: never answer it from an old copy.
    staleTime: 0,
  });
}

/** The signed-in user's last commands on a database, newest first. */
export function useCommandHistory(id: string) {
  return useQuery({
    queryKey: historyKey(id),
    queryFn: () =>
      call(
        api.GET('/api/databases/{id}/keyvalue/history', { params: { path: { id }, query: { limit: 50 } } }),
      ),
  });
}
