import { unprocessable, validationError } from '../../core/errors.js';
import type { AllowlistEntry } from '../../db/schema/index.js';
import type { GitlabClient, GitlabGroup, GitlabProject } from './gitlab.js';
import type { AllowlistRequest, PreviewResult } from './schemas.js';

/** The groups and projects a connector may use: checked against what its token sees on the host. */

export const projectEntry = (project: GitlabProject): AllowlistEntry => ({
  entryType: 'project',
  remoteId: String(project.id),
  fullPath: project.path_with_namespace,
  name: project.name ?? null,
  webUrl: project.web_url ?? null,
});

export const groupEntry = (group: GitlabGroup): AllowlistEntry => ({
  entryType: 'group',
  remoteId: String(group.id),
  fullPath: group.full_path,
  name: group.name ?? null,
  webUrl: group.web_url ?? null,
});

/** How an entry is named in audit metadata. */
export const auditEntry = (entry: AllowlistEntry) => `${entry.entryType}:${entry.remoteId}:${entry.fullPath}`;

/** Refuses an allowlist naming the same group or project twice (400, before anything goes out). */
export function checkAllowlist(entries: AllowlistRequest[]): void {
  const seen = new Set<string>();
  const issues = entries.flatMap((entry, index) => {
    const key = `${entry.entryType}:${entry.remoteId}`;
    if (seen.has(key)) return [{ path: ['allowlist', index], message: `duplicates ${key}` }];
    seen.add(key);
    return [];
  });
  if (issues.length > 0) throw validationError(issues);
}

/**
 * Every requested allowlist entry must be something the token sees; entries are answered with the host's
 * current path, name and URL. An entry past the listing cap is looked up directly.
 */
export async function resolveAllowlist(
  client: GitlabClient,
  preview: PreviewResult,
  requested: AllowlistRequest[],
): Promise<AllowlistEntry[]> {
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
