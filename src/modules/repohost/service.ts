import { asc, count, eq } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { EgressGuard } from '../../core/egress-guard.js';
import {
  AppError,
  conflict,
  invalidField,
  notFound,
  unprocessable,
  validationError,
} from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import type { SecretBox } from '../../core/secret-box.js';
import { containsText } from '../../core/text-filters.js';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  type AllowlistEntry,
  type RemoteUser,
  repohostConnectors,
  type TestFailure,
} from '../../db/schema/index.js';
import { GitlabClient, notGitlab, tokenRejected } from './gitlab.js';

const TOKEN_CONTEXT = 'repohost_connectors.token';

/** The capability names the clients of this API expect, in this order. */
export const CAPABILITIES = [
  'apiReachable',
  'tokenSelf',
  'projectsView',
  'groupsView',
  'repoRead',
  'repoWrite',
  'ciView',
  'pipelineRead',
  'registryView',
  'webhooksManage',
] as const;
export type Capability = (typeof CAPABILITIES)[number];
export type Capabilities = Record<Capability, boolean>;

export interface PreviewResult {
  capabilities: Capabilities;
  allowlistEntries: AllowlistEntry[];
  user: RemoteUser | null;
  tokenExpiresAt: string | null;
  /** The token's scopes as the host reports them; null when it does not say. */
  tokenScopes: string[] | null;
  /** The project the read-only probes ran against; null when the token sees none. */
  probedProject: { remoteId: string; fullPath: string; accessLevel: number | null } | null;
  /** More groups or projects exist than the listing cap allowed to read. */
  truncated: boolean;
}

export interface TestReport extends PreviewResult {
  ok: boolean;
  testedAt: Date;
  error: TestFailure | null;
}

export interface AllowlistRequest {
  entryType: 'group' | 'project';
  remoteId: string;
  fullPath: string;
}

export interface NewConnector {
  name: string;
  baseUrl: string;
  token: string;
  allowlist?: AllowlistRequest[] | undefined;
}

export interface ConnectorChanges {
  name?: string | undefined;
  baseUrl?: string | undefined;
  token?: string | undefined;
  allowlist?: AllowlistRequest[] | undefined;
}

export interface ConnectorView {
  id: string;
  name: string;
  baseUrl: string;
  allowlist: AllowlistEntry[];
  capabilities: Record<string, boolean>;
  tokenScopes: string[] | null;
  tokenExpiresAt: string | null;
  remoteUser: RemoteUser | null;
  lastTestedAt: Date;
  lastTestOk: boolean;
  lastTestError: TestFailure | null;
  createdAt: Date;
  updatedAt: Date;
}

interface GitlabProject {
  id: number;
  name: string;
  path_with_namespace: string;
  web_url?: string;
  permissions?: {
    project_access?: { access_level?: number } | null;
    group_access?: { access_level?: number } | null;
  };
}

interface GitlabGroup {
  id: number;
  name: string;
  full_path: string;
  web_url?: string;
}

const READ_SCOPES = ['api', 'read_api'];
const DEVELOPER = 30;

const noCapabilities = (): Capabilities =>
  Object.fromEntries(CAPABILITIES.map((name) => [name, false])) as Capabilities;

const projectEntry = (project: GitlabProject): AllowlistEntry => ({
  entryType: 'project',
  remoteId: String(project.id),
  fullPath: project.path_with_namespace,
  name: project.name ?? null,
  webUrl: project.web_url ?? null,
});

const groupEntry = (group: GitlabGroup): AllowlistEntry => ({
  entryType: 'group',
  remoteId: String(group.id),
  fullPath: group.full_path,
  name: group.name ?? null,
  webUrl: group.web_url ?? null,
});

function accessLevel(project: GitlabProject): number | null {
  const levels = [
    project.permissions?.project_access?.access_level,
    project.permissions?.group_access?.access_level,
  ].filter((level): level is number => typeof level === 'number');
  return levels.length > 0 ? Math.max(...levels) : null;
}

/** Refuses base URLs that cannot be a GitLab root before anything goes out. */
export function checkBaseUrl(raw: string, path: (string | number)[] = ['baseUrl']): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField(path, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidField(path, 'must use http or https');
  if (url.username || url.password)
    throw invalidField(path, 'must not carry credentials; send the token in token');
  if (url.search || url.hash) throw invalidField(path, 'must not have a query or a fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function checkAllowlist(entries: AllowlistRequest[]): void {
  const seen = new Set<string>();
  const issues = entries.flatMap((entry, index) => {
    const key = `${entry.entryType}:${entry.remoteId}`;
    if (seen.has(key)) return [{ path: ['allowlist', index], message: `duplicates ${key}` }];
    seen.add(key);
    return [];
  });
  if (issues.length > 0) throw validationError(issues);
}

/** Host-supplied text never carries the token back out, whatever the host did with it. */
function scrub(error: unknown, token: string): unknown {
  if (!(error instanceof AppError) || token.length === 0) return error;
  const text = JSON.stringify(error.details ?? null);
  if (!text.includes(token)) return error;
  return new AppError(
    error.code,
    JSON.parse(text.split(token).join('[redacted]')),
    error.message,
    error.statusCode,
  );
}

/**
 * Repository host connectors. A test calls the GitLab API v4 with the token, derives capabilities from the
 * token's scopes and read-only probes on one visible project, and lists what the token can see.
 */
export class RepohostService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditRecorder,
    private readonly secrets: SecretBox,
    private readonly egress: EgressGuard,
    private readonly options: { timeoutMs: number; maxItems: number },
  ) {}

  /** One-time test with a submitted token; failures are 422s. The token is used for these calls only. */
  async preview(input: { baseUrl: string; token: string }): Promise<PreviewResult> {
    const baseUrl = checkBaseUrl(input.baseUrl);
    try {
      return await this.runTest(baseUrl, input.token);
    } catch (error) {
      throw scrub(error, input.token);
    }
  }

  private async runTest(baseUrl: string, token: string): Promise<PreviewResult> {
    const client = new GitlabClient(this.egress, baseUrl, token, this.options.timeoutMs);
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
      client.list<GitlabGroup>(
        'groups',
        { min_access_level: '10', order_by: 'name', sort: 'asc' },
        this.options.maxItems,
      ),
      client.list<GitlabProject>(
        'projects',
        { membership: 'true', order_by: 'id', sort: 'asc' },
        this.options.maxItems,
      ),
    ]);
    capabilities.groupsView = !groups.refused;
    capabilities.projectsView = !projects.refused;

    // Probe the project where the token has the most access, so a capability it has shows up.
    const sample = [...projects.items].sort((a, b) => (accessLevel(b) ?? 0) - (accessLevel(a) ?? 0))[0];
    let probedProject: PreviewResult['probedProject'] = null;
    if (sample) {
      const level = accessLevel(sample);
      probedProject = {
        remoteId: String(sample.id),
        fullPath: sample.path_with_namespace,
        accessLevel: level,
      };
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

  /**
   * Every requested allowlist entry must be something the token sees; entries are answered with the host's
   * current path, name and URL. An entry past the listing cap is looked up directly.
   */
  private async resolveAllowlist(
    baseUrl: string,
    token: string,
    preview: PreviewResult,
    requested: AllowlistRequest[],
  ): Promise<AllowlistEntry[]> {
    const client = new GitlabClient(this.egress, baseUrl, token, this.options.timeoutMs);
    const resolved: AllowlistEntry[] = [];
    const invisible: AllowlistRequest[] = [];
    for (const entry of requested) {
      let found = preview.allowlistEntries.find(
        (candidate) => candidate.entryType === entry.entryType && candidate.remoteId === entry.remoteId,
      );
      if (!found && /^\d+$/.test(entry.remoteId)) {
        const answer = await client.get(
          `${entry.entryType === 'group' ? 'groups' : 'projects'}/${entry.remoteId}`,
        );
        if (answer.status === 200 && answer.body && typeof answer.body === 'object') {
          found =
            entry.entryType === 'group'
              ? groupEntry(answer.body as GitlabGroup)
              : projectEntry(answer.body as GitlabProject);
        }
      }
      if (!found) {
        invisible.push(entry);
        continue;
      }
      if (found.fullPath.toLowerCase() !== entry.fullPath.toLowerCase()) {
        throw unprocessable(
          'ALLOWLIST_PATH_MISMATCH',
          `${entry.entryType} ${entry.remoteId} is ${found.fullPath} on the host, not ${entry.fullPath}`,
          { entry, hostFullPath: found.fullPath },
        );
      }
      resolved.push(found);
    }
    if (invisible.length > 0) {
      throw unprocessable(
        'ALLOWLIST_ENTRY_NOT_VISIBLE',
        `the token cannot see ${invisible.map((entry) => `${entry.entryType} ${entry.fullPath} (${entry.remoteId})`).join(', ')}`,
        { entries: invisible },
      );
    }
    return resolved;
  }

  /** Tests the connection and resolves the allowlist, or throws the 422 that says why not. */
  private async testForSave(baseUrl: string, token: string, allowlist: AllowlistRequest[]) {
    try {
      const preview = await this.runTest(baseUrl, token);
      const entries = await this.resolveAllowlist(baseUrl, token, preview, allowlist);
      return { preview, entries };
    } catch (error) {
      throw scrub(error, token);
    }
  }

  async list(filter: PageRequest & { q?: string | undefined }) {
    const where = filter.q ? containsText(repohostConnectors.name, filter.q) : undefined;
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.db
          .select()
          .from(repohostConnectors)
          .where(where)
          .orderBy(asc(repohostConnectors.name))
          .limit(limit)
          .offset(offset),
      this.db.select({ value: count() }).from(repohostConnectors).where(where),
      toView,
    );
  }

  async get(id: string, db: DbOrTx = this.db): Promise<ConnectorView> {
    const [row] = await db.select().from(repohostConnectors).where(eq(repohostConnectors.id, id));
    if (!row) throw notFound({ connectorId: id });
    return toView(row);
  }

  async create(actor: AuditActor, input: NewConnector): Promise<ConnectorView> {
    const name = trimmedName(input.name);
    const baseUrl = checkBaseUrl(input.baseUrl);
    checkAllowlist(input.allowlist ?? []);
    await this.ensureNameFree(name);
    const { preview, entries } = await this.testForSave(baseUrl, input.token, input.allowlist ?? []);
    return this.db.transaction(async (tx) => {
      const [{ id }] = (await conflictOnDuplicate(
        tx
          .insert(repohostConnectors)
          .values({
            name,
            baseUrl,
            tokenSealed: this.secrets.seal(input.token, TOKEN_CONTEXT),
            allowlist: entries,
            ...testColumns(preview),
          })
          .returning({ id: repohostConnectors.id }),
        'CONNECTOR_NAME_TAKEN',
        { name },
      )) as [{ id: string }];
      await this.audit.record(tx, actor, {
        action: 'repohost.connector.created',
        targetType: 'repohost_connector',
        targetId: id,
        metadata: {
          name,
          baseUrl,
          allowlist: entries.map(auditEntry),
          capabilities: preview.capabilities,
        },
      });
      return this.get(id, tx);
    });
  }

  async update(actor: AuditActor, id: string, changes: ConnectorChanges): Promise<ConnectorView> {
    // Bad input is a 400 before an unknown id is a 404.
    const newName = changes.name === undefined ? undefined : trimmedName(changes.name);
    const newBaseUrl = changes.baseUrl === undefined ? undefined : checkBaseUrl(changes.baseUrl);
    if (changes.allowlist) checkAllowlist(changes.allowlist);
    const current = await this.loadRow(id);
    const name = newName ?? current.name;
    const baseUrl = newBaseUrl ?? current.baseUrl;
    if (name !== current.name) await this.ensureNameFree(name);
    const values: Partial<typeof repohostConnectors.$inferInsert> = { name, baseUrl, updatedAt: new Date() };
    const retest =
      changes.baseUrl !== undefined || changes.token !== undefined || changes.allowlist !== undefined;
    if (retest) {
      const token = changes.token ?? this.secrets.open(current.tokenSealed, TOKEN_CONTEXT);
      const wanted =
        changes.allowlist ??
        current.allowlist.map(({ entryType, remoteId, fullPath }) => ({ entryType, remoteId, fullPath }));
      const { preview, entries } = await this.testForSave(baseUrl, token, wanted);
      Object.assign(values, testColumns(preview), { allowlist: entries });
      if (changes.token !== undefined) values.tokenSealed = this.secrets.seal(changes.token, TOKEN_CONTEXT);
    }
    return this.db.transaction(async (tx) => {
      const [row] = await conflictOnDuplicate(
        tx
          .update(repohostConnectors)
          .set(values)
          .where(eq(repohostConnectors.id, id))
          .returning({ id: repohostConnectors.id }),
        'CONNECTOR_NAME_TAKEN',
        { name },
      );
      if (!row) throw notFound({ connectorId: id });
      await this.audit.record(tx, actor, {
        action: 'repohost.connector.updated',
        targetType: 'repohost_connector',
        targetId: id,
        metadata: {
          name,
          baseUrl,
          changed: Object.keys(changes).filter((key) => changes[key as keyof ConnectorChanges] !== undefined),
          ...(values.allowlist ? { allowlist: values.allowlist.map(auditEntry) } : {}),
        },
      });
      return this.get(id, tx);
    });
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(repohostConnectors)
        .where(eq(repohostConnectors.id, id))
        .returning({ name: repohostConnectors.name, baseUrl: repohostConnectors.baseUrl });
      if (!row) throw notFound({ connectorId: id });
      await this.audit.record(tx, actor, {
        action: 'repohost.connector.deleted',
        targetType: 'repohost_connector',
        targetId: id,
        metadata: row,
      });
    });
  }

  /** Re-tests a saved connector with its stored token and records the outcome; a failure is a report, not an error. */
  async test(actor: AuditActor, id: string): Promise<TestReport> {
    const row = await this.loadRow(id);
    const token = this.secrets.open(row.tokenSealed, TOKEN_CONTEXT);
    const testedAt = new Date();
    let report: TestReport;
    try {
      const preview = await this.runTest(row.baseUrl, token);
      report = { ...preview, ok: true, testedAt, error: null };
    } catch (error) {
      const scrubbed = scrub(error, token);
      if (!(scrubbed instanceof AppError) || scrubbed.code !== 'UNPROCESSABLE_ENTITY') throw scrubbed;
      const details = scrubbed.details as TestFailure;
      const capabilities = noCapabilities();
      capabilities.apiReachable = details.reason === 'TOKEN_REJECTED' || details.reason === 'NOT_GITLAB';
      report = {
        capabilities,
        allowlistEntries: [],
        user: null,
        tokenExpiresAt: null,
        tokenScopes: null,
        probedProject: null,
        truncated: false,
        ok: false,
        testedAt,
        error: { reason: details.reason, explanation: details.explanation },
      };
    }
    await this.db.transaction(async (tx) => {
      const columns = report.ok
        ? testColumns(report)
        : {
            capabilities: report.capabilities,
            lastTestedAt: testedAt,
            lastTestOk: false,
            lastTestError: report.error,
          };
      await tx.update(repohostConnectors).set(columns).where(eq(repohostConnectors.id, id));
      await this.audit.record(tx, actor, {
        action: 'repohost.connector.tested',
        targetType: 'repohost_connector',
        targetId: id,
        outcome: report.ok ? 'success' : 'failure',
        metadata: { name: row.name, ok: report.ok, ...(report.error ? { reason: report.error.reason } : {}) },
      });
    });
    return report;
  }

  private async loadRow(id: string) {
    const [row] = await this.db.select().from(repohostConnectors).where(eq(repohostConnectors.id, id));
    if (!row) throw notFound({ connectorId: id });
    return row;
  }

  private async ensureNameFree(name: string): Promise<void> {
    const [existing] = await this.db
      .select({ id: repohostConnectors.id })
      .from(repohostConnectors)
      .where(eq(repohostConnectors.name, name));
    if (existing) throw conflict('CONNECTOR_NAME_TAKEN', { name });
  }
}

/** The connector columns that record a passed test. */
function testColumns(preview: PreviewResult) {
  return {
    capabilities: preview.capabilities,
    tokenScopes: preview.tokenScopes,
    tokenExpiresAt: preview.tokenExpiresAt,
    remoteUser: preview.user,
    lastTestedAt: new Date(),
    lastTestOk: true,
    lastTestError: null,
  };
}

const auditEntry = (entry: AllowlistEntry) => `${entry.entryType}:${entry.remoteId}:${entry.fullPath}`;

function toView(row: typeof repohostConnectors.$inferSelect): ConnectorView {
  const { tokenSealed: _sealed, ...view } = row;
  return view;
}
