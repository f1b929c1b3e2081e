import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';

export type Provider = Answer<'/api/inference/providers/catalog', 'get'>[number];
export type Connection = Answer<'/api/inference/connections', 'get'>['data'][number];
export type ConnectionTest = Answer<'/api/inference/connections/{id}/test', 'post'>['data'];
export type OAuthSession = Answer<'/api/inference/providers/oauth/start', 'post'>;
export type AuthType = Connection['authType'];

/** The inference area's place in the query cache; a change invalidates all of it. */
export const INFERENCE_KEY = ['inference'];
export const CONNECTIONS_KEY = ['inference', 'connections'];

/** The provider catalog (a data file read at start: it does not change while the gateway runs). */
export function useCatalog() {
  return useQuery({
    queryKey: ['inference', 'catalog'],
    queryFn: () => call(api.GET('/api/inference/providers/catalog')),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export const AUTH_TYPE_LABELS: Record<AuthType, string> = {
  api_key: 'API key',
  local: 'Local server',
  oauth: 'Sign-in (OAuth)',
};
