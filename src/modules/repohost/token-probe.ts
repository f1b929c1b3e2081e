import type { RemoteUser } from '../../db/schema/index.js';
import { groupEntry, projectEntry } from './allowlist.js';
import {
  type GitlabClient,
  type GitlabGroup,
  type GitlabProject,
  notGitlab,
  tokenRejected,
} from './gitlab.js';
import { CAPABILITIES, type Capabilities, type PreviewResult } from './schemas.js';

const READ_SCOPES = ['api', 'read_api'];
const DEVELOPER = 30;

export const noCapabilities = (): Capabilities =>
  Object.fromEntries(CAPABILITIES.map((name) => [name, false])) as Capabilities;

function accessLevel(project: GitlabProject): number | null {
  const levels = [
    project.permissions?.project_access?.access_level,
    project.permissions?.group_access?.access_level,
  ].filter((level): level is number => typeof level === 'number');
  return levels.length > 0 ? Math.max(...levels) : null;
}

/**
 * Tests a token against the GitLab API v4: derives capabilities from the token's scopes and read-only
 * probes on one visible project, and lists the groups and projects it can see (at most `maxItems` each).
 * Failures are 422s from the adapter (token rejected, not GitLab, unreachable…).
 */
export async function probeToken(client: GitlabClient, maxItems: number): Promise<PreviewResult> {
  const capabilities = noCapabilities();

  const self = await client.get('personal_access_tokens/self');
  if (self.status === 401) throw tokenRejected(client.host);
  if (self.status >= 500) throw notGitlab(client.host, '/api/v4/personal_access_tokens/self', self.status);
  const selfBody = self.status === 200 ? (self.body as Record<string, unknown> | undefined) : undefined;
  capabilities.apiReachable = true;
  capabilities.tokenSelf = selfBody !== undefined && Array.isArray(selfBody.scopes);
  const tokenScopes = capabilities.tokenSelf ? (selfBody!.scopes as string[]).map(String) : null;
  const tokenExpiresAt =
    capabilities.tokenSelf && typeof selfBody!.expires_at === 'string'
      ? (selfBody!.expires_at as string)
      : null;
  const scoped = (...names: string[]) =>
    tokenScopes === null || names.some((name) => tokenScopes.includes(name));

  const me = await client.get('user');
  if (me.status === 401) throw tokenRejected(client.host);
  if (me.status !== 200 && me.status !== 403) throw notGitlab(client.host, '/api/v4/user', me.status);
  const userBody = me.status === 200 ? (me.body as Record<string, unknown> | undefined) : undefined;
  if (me.status === 200 && (userBody === undefined || userBody.id === undefined)) {
    throw notGitlab(client.host, '/api/v4/user', me.status);
  }
  const user: RemoteUser | null = userBody
    ? {
        id: String(userBody.id),
        username: String(userBody.username ?? ''),
        name: String(userBody.name ?? ''),
        webUrl: typeof userBody.web_url === 'string' ? userBody.web_url : null,
      }
    : null;

  const [groups, projects] = await Promise.all([
    client.list<GitlabGroup>('groups', { min_access_level: '10', order_by: 'name', sort: 'asc' }, maxItems),
    client.list<GitlabProject>('projects', { membership: 'true', order_by: 'id', sort: 'asc' }, maxItems),
  ]);
  capabilities.groupsView = !groups.refused;
  capabilities.projectsView = !projects.refused;

  // Probe the project where the token has the most access, so a capability it has shows up.
  const sample = [...projects.items].sort((a, b) => (accessLevel(b) ?? 0) - (accessLevel(a) ?? 0))[0];
  let probedProject: PreviewResult['probedProject'] = null;
  if (sample) {
    const level = accessLevel(sample);
    probedProject = { remoteId: String(sample.id), fullPath: sample.path_with_namespace, accessLevel: level };
    const probe = async (path: string) =>
      (await client.get(`projects/${sample.id}/${path}`, { per_page: '1' })).status === 200;
    const [branches, jobs, pipelines, registry, hooks] = await Promise.all([
      probe('repository/branches'),
      probe('jobs'),
      probe('pipelines'),
      probe('registry/repositories'),
      probe('hooks'),
    ]);
    capabilities.repoRead = branches && scoped(...READ_SCOPES, 'read_repository');
    capabilities.repoWrite =
      capabilities.repoRead &&
      (level ?? 0) >= DEVELOPER &&
      tokenScopes !== null &&
      scoped('api', 'write_repository');
    capabilities.ciView = jobs;
    capabilities.pipelineRead = pipelines;
    capabilities.registryView = registry;
    // Listing hooks is read-only; changing them needs the api scope besides the Maintainer role it proves.
    capabilities.webhooksManage = hooks && tokenScopes !== null && scoped('api');
  }

  return {
    capabilities,
    allowlistEntries: [...groups.items.map(groupEntry), ...projects.items.map(projectEntry)],
    user,
    tokenExpiresAt,
    tokenScopes,
    probedProject,
    truncated: groups.truncated || projects.truncated,
  };
}
