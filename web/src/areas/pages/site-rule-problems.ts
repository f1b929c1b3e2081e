import { ApiError } from '../../api/errors';

export interface SiteRuleProblem {
  file: string;
  line: number;
  message: string;
}

function isProblem(value: unknown): value is SiteRuleProblem {
  if (typeof value !== 'object' || value === null) return false;
  const { file, line, message } = value as Record<string, unknown>;
  return typeof file === 'string' && typeof line === 'number' && typeof message === 'string';
}

/**
 * The mistakes in `_redirects` / `_headers` a refused deployment lists (422 `SITE_RULES_INVALID`,
 * `details.problems`), as lines to show: `_redirects line 3: …` (line 0 is about the whole file).
 */
export function siteRuleProblems(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.reason !== 'SITE_RULES_INVALID') return [];
  const { problems } = error.details as { problems?: unknown };
  if (!Array.isArray(problems)) return [];
  return problems
    .filter(isProblem)
    .map(({ file, line, message }) =>
      line > 0 ? `${file} line ${line}: ${message}` : `${file}: ${message}`,
    );
}
