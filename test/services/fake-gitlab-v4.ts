/**
 * FAKE GitLab — a loopback HTTP server that answers a small part of the public GitLab REST API v4 the way
 * its documentation describes it. There is no runnable GitLab on these machines, so repohost tests talk to
 * this instead. Implemented as documented (docs.gitlab.com/api/rest, personal_access_tokens, users, groups,
 * projects, branches, jobs, pipelines, container registry, project hooks):
 *
 * - auth by `PRIVATE-TOKEN: <token>` or `Authorization: Bearer <token>`; an unknown, revoked or expired
 *   token gets `401 {"message":"401 Unauthorized"}`
 * - scope checks: a token without a scope the endpoint needs gets `403 {"error":"insufficient_scope",…}`
 * - offset pagination: `page`, `per_page` (default 20, max 100) and the headers `X-Page`, `X-Per-Page`,
 *   `X-Total`, `X-Total-Pages`, `X-Next-Page`, `X-Prev-Page` (empty when there is none) and `Link`
 * - private projects: a non-member gets `404 {"message":"404 Project Not Found"}`, a member below the
 *   role an endpoint needs gets `403 {"message":"403 Forbidden"}`
 * - `slowMs`: every answer waits that long first (a host that times out)
 */
import http from 'node:http';
import { listenOnLoopback } from './peers.js';

export const ACCESS = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;

export interface FakeUser {
  id: number;
  username: string;
  name: string;
}

export interface FakeToken {
  token: string;
  userId: number;
  scopes: string[];
  /** `YYYY-MM-DD` or null. */
  expiresAt: string | null;
  revoked?: boolean;
  name?: string;
}

export interface FakeGroup {
  id: number;
  name: string;
  fullPath: string;
  /** user id → access level */
  members: Record<number, number>;
}

export interface FakeProject {
  id: number;
  name: string;
  /** `group/sub/project` */
  pathWithNamespace: string;
  members: Record<number, number>;
  registryEnabled?: boolean;
}

export interface FakeGitlab {
  url: string;
  users: FakeUser[];
  tokens: FakeToken[];
  groups: FakeGroup[];
  projects: FakeProject[];
  /** Every request received: method, path with query, and headers. */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  /** Delay before every answer, in ms; 0 answers at once. */
  slowMs: number;
  close(): Promise<void>;
}

const SCOPE_ERROR = {
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope: 'api read_api',
};

export async function startFakeGitlab(): Promise<FakeGitlab> {
  const state: Omit<FakeGitlab, 'url' | 'close'> = {
    users: [],
    tokens: [],
    groups: [],
    projects: [],
    requests: [],
    slowMs: 0,
  };
  const server = http.createServer((request, response) => {
    state.requests.push({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
    });
    const answer = () => handle(request, response);
    if (state.slowMs > 0) setTimeout(answer, state.slowMs);
    else answer();
  });
  let base = '';

  const send = (
    response: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };

  function authenticate(request: http.IncomingMessage): FakeToken | undefined {
    const header = request.headers['private-token'];
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const secret = (Array.isArray(header) ? header[0] : header) ?? bearer;
    const token = state.tokens.find((candidate) => candidate.token === secret);
    if (!token || token.revoked) return undefined;
    if (token.expiresAt && new Date(`${token.expiresAt}T00:00:00Z`) <= new Date()) return undefined;
    return token;
  }

  function paginate(response: http.ServerResponse, url: URL, items: unknown[]) {
    const perPage = Math.min(Math.max(Number(url.searchParams.get('per_page') ?? 20) || 20, 1), 100);
    const page = Math.max(Number(url.searchParams.get('page') ?? 1) || 1, 1);
    const totalPages = Math.max(Math.ceil(items.length / perPage), 1);
    const link = (target: number) => {
      const next = new URL(url);
      next.searchParams.set('page', String(target));
      next.searchParams.set('per_page', String(perPage));
      return `${base}${next.pathname}${next.search}`;
    };
    const links = [
      ...(page < totalPages ? [`<${link(page + 1)}>; rel="next"`] : []),
      ...(page > 1 ? [`<${link(page - 1)}>; rel="prev"`] : []),
      `<${link(1)}>; rel="first"`,
      `<${link(totalPages)}>; rel="last"`,
    ];
    send(response, 200, items.slice((page - 1) * perPage, page * perPage), {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-total': String(items.length),
      'x-total-pages': String(totalPages),
      'x-next-page': page < totalPages ? String(page + 1) : '',
      'x-prev-page': page > 1 ? String(page - 1) : '',
      link: links.join(', '),
    });
  }

  const userJson = (user: FakeUser) => ({
    id: user.id,
    username: user.username,
    name: user.name,
    state: 'active',
    locked: false,
    avatar_url: null,
    web_url: `${base}/${user.username}`,
  });

  const groupJson = (group: FakeGroup) => ({
    id: group.id,
    name: group.name,
    path: group.fullPath.split('/').pop(),
    full_name: group.fullPath.split('/').join(' / '),
    full_path: group.fullPath,
    visibility: 'private',
    web_url: `${base}/groups/${group.fullPath}`,
    parent_id: null,
  });

  const projectJson = (project: FakeProject, userId: number) => {
    const namespace = project.pathWithNamespace.split('/').slice(0, -1).join('/');
    const level = project.members[userId];
    return {
      id: project.id,
      name: project.name,
      path: project.pathWithNamespace.split('/').pop(),
      path_with_namespace: project.pathWithNamespace,
      name_with_namespace: `${namespace.split('/').join(' / ')} / ${project.name}`,
      default_branch: 'main',
      visibility: 'private',
      web_url: `${base}/${project.pathWithNamespace}`,
      namespace: { full_path: namespace, kind: 'group' },
      container_registry_enabled: project.registryEnabled !== false,
      permissions: {
        project_access: level ? { access_level: level, notification_level: 3 } : null,
        group_access: null,
      },
    };
  };

  function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    if (!path.startsWith('/api/v4/')) return send(response, 404, { message: '404 Not Found' });
    const token = authenticate(request);
    if (!token) return send(response, 401, { message: '401 Unauthorized' });
    const user = state.users.find((candidate) => candidate.id === token.userId)!;
    const hasScope = (...scopes: string[]) => scopes.some((scope) => token.scopes.includes(scope));
    const apiRead = hasScope('api', 'read_api');

    if (path === '/api/v4/personal_access_tokens/self') {
      return send(response, 200, {
        id: state.tokens.indexOf(token) + 1,
        name: token.name ?? 'token',
        revoked: false,
        created_at: '2026-01-01T00:00:00.000Z',
        scopes: token.scopes,
        user_id: token.userId,
        last_used_at: new Date().toISOString(),
        active: true,
        expires_at: token.expiresAt,
      });
    }
    if (path === '/api/v4/user') {
      if (!hasScope('api', 'read_api', 'read_user')) return send(response, 403, SCOPE_ERROR);
      return send(response, 200, userJson(user));
    }
    if (path === '/api/v4/groups') {
      if (!apiRead) return send(response, 403, SCOPE_ERROR);
      const minimum = Number(url.searchParams.get('min_access_level') ?? 0);
      const visible = state.groups.filter((group) => (group.members[user.id] ?? 0) >= Math.max(minimum, 1));
      return paginate(response, url, visible.map(groupJson));
    }
    if (path === '/api/v4/projects') {
      if (!apiRead) return send(response, 403, SCOPE_ERROR);
      const visible = state.projects.filter((project) => (project.members[user.id] ?? 0) > 0);
      return paginate(
        response,
        url,
        visible.map((project) => projectJson(project, user.id)),
      );
    }
    const groupMatch = /^\/api\/v4\/groups\/([^/]+)$/.exec(path);
    if (groupMatch) {
      if (!apiRead) return send(response, 403, SCOPE_ERROR);
      const ref = decodeURIComponent(groupMatch[1]!);
      const group = state.groups.find(
        (candidate) => String(candidate.id) === ref || candidate.fullPath === ref,
      );
      if (!group?.members[user.id]) return send(response, 404, { message: '404 Group Not Found' });
      return send(response, 200, groupJson(group));
    }
    const projectMatch = /^\/api\/v4\/projects\/([^/]+)(\/.*)?$/.exec(path);
    if (projectMatch) {
      const ref = decodeURIComponent(projectMatch[1]!);
      const rest = projectMatch[2] ?? '';
      const project = state.projects.find(
        (candidate) => String(candidate.id) === ref || candidate.pathWithNamespace === ref,
      );
      const level = project?.members[user.id] ?? 0;
      const repositoryScope = rest.startsWith('/repository/') && hasScope('read_repository');
      if (!apiRead && !repositoryScope) return send(response, 403, SCOPE_ERROR);
      if (!project || level === 0) return send(response, 404, { message: '404 Project Not Found' });
      const needs = (minimum: number) => level >= minimum;
      switch (rest) {
        case '':
          return send(response, 200, projectJson(project, user.id));
        case '/repository/branches':
          if (!needs(ACCESS.reporter)) return send(response, 403, { message: '403 Forbidden' });
          return paginate(response, url, [{ name: 'main', default: true, protected: true, merged: false }]);
        case '/jobs':
          if (!needs(ACCESS.reporter)) return send(response, 403, { message: '403 Forbidden' });
          return paginate(response, url, [{ id: 7, status: 'success', stage: 'test', name: 'unit' }]);
        case '/pipelines':
          if (!needs(ACCESS.reporter)) return send(response, 403, { message: '403 Forbidden' });
          return paginate(response, url, [{ id: 3, status: 'success', ref: 'main', sha: 'abc123' }]);
        case '/registry/repositories':
          if (project.registryEnabled === false) return send(response, 404, { message: '404 Not Found' });
          if (!needs(ACCESS.reporter)) return send(response, 403, { message: '403 Forbidden' });
          return paginate(response, url, [{ id: 1, name: '', path: project.pathWithNamespace }]);
        case '/hooks':
          if (!needs(ACCESS.maintainer)) return send(response, 403, { message: '403 Forbidden' });
          return paginate(response, url, []);
      }
    }
    return send(response, 404, { message: '404 Not Found' });
  }

  base = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  return Object.assign(state, {
    url: base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
