import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';

export type Project = Answer<'/api/pages/{projectId}', 'get'>['data'];
export type Deployment = Answer<'/api/pages/{projectId}/deployments/{deploymentId}', 'get'>['data'];
export type Domain = Answer<'/api/pages/{projectId}/domains/{domainId}', 'get'>['data'];
export type DeployToken = Answer<'/api/pages/{projectId}/deploy-tokens', 'get'>['data'][number];

/** The area's places in the query cache; a change invalidates `PAGES_KEY` (everything here). */
export const PAGES_KEY = ['pages'];
export const PROJECT_LIST_KEY = ['pages', 'projects'];
export const projectKey = (projectId: string) => ['pages', 'project', projectId];

/** Whether the signed-in user may change pages projects (create, deploy, domains, tokens). */
export function useMayManagePages(projectId?: string): boolean {
  return mayUse(useCurrentUser().scopes, 'pages:manage', projectId);
}

export function useProject(projectId: string) {
  return useQuery({
    queryKey: projectKey(projectId),
    queryFn: () => call(api.GET('/api/pages/{projectId}', { params: { path: { projectId } } })),
  });
}

/** A deployment as people tell them apart: the start of its id. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** `1 file`, `42 files`. */
export function fileCount(count: number): string {
  return count === 1 ? '1 file' : `${count} files`;
}
