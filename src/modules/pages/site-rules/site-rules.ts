import { unprocessable } from '../../../core/errors.js';
import { HEADERS_FILE, HeaderTable, parseHeaders } from './headers-file.js';
import { ProblemList, type RuleProblem } from './problems.js';
import { parseRedirects, REDIRECT_FILE, RedirectTable } from './redirects-file.js';

/** The `_redirects` and `_headers` of one deployment, ready to apply. */
export interface SiteRules {
  redirects: RedirectTable;
  headers: HeaderTable;
}

/** The rules files at the root of a deployment; they configure the site and are never served. */
export const RULE_FILES: readonly string[] = [REDIRECT_FILE, HEADERS_FILE];

const MAX_RULE_FILE_BYTES = { [REDIRECT_FILE]: 1024 * 1024, [HEADERS_FILE]: 256 * 1024 } as const;

interface StoredFile {
  sha256: string;
  sizeBytes: number;
}

type ReadFile = (sha256: string) => Promise<Buffer>;

/** Reads a rules file as UTF-8 text within its size limit; a problem on line 0 concerns the whole file. */
async function ruleText(
  name: keyof typeof MAX_RULE_FILE_BYTES,
  file: StoredFile | undefined,
  read: ReadFile,
  problems: ProblemList,
): Promise<string> {
  if (!file) return '';
  const limit = MAX_RULE_FILE_BYTES[name];
  if (file.sizeBytes > limit) {
    problems.add(0, `${name} is larger than ${limit} bytes`);
    return '';
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await read(file.sha256));
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    problems.add(0, `${name} is not UTF-8 text`);
    return '';
  }
}

/** Parses a deployment's rules files (absent files are no rules) and lists every problem found. */
export async function loadSiteRules(
  files: ReadonlyMap<string, StoredFile>,
  read: ReadFile,
): Promise<{ rules: SiteRules; problems: RuleProblem[]; problemCount: number }> {
  const redirectProblems = new ProblemList(REDIRECT_FILE);
  const redirects = parseRedirects(
    await ruleText(REDIRECT_FILE, files.get(REDIRECT_FILE), read, redirectProblems),
    redirectProblems,
  );
  const headerProblems = new ProblemList(HEADERS_FILE);
  const headers = parseHeaders(
    await ruleText(HEADERS_FILE, files.get(HEADERS_FILE), read, headerProblems),
    headerProblems,
  );
  return {
    rules: { redirects: new RedirectTable(redirects.rules), headers: new HeaderTable(headers.rules) },
    problems: [...redirectProblems.items, ...headerProblems.items],
    problemCount: redirectProblems.count + headerProblems.count,
  };
}

/**
 * Refuses a deployment whose rules files have mistakes (422 `SITE_RULES_INVALID`, every problem with
 * its file and line), so a site never goes live with rules that would be ignored.
 */
export async function validateSiteRules(
  files: ReadonlyMap<string, StoredFile>,
  read: ReadFile,
): Promise<void> {
  const { problems, problemCount } = await loadSiteRules(files, read);
  if (problemCount === 0) return;
  throw unprocessable(
    'SITE_RULES_INVALID',
    `${problemCount} problem(s) in _redirects or _headers; fix the lines listed in problems`,
    { problems, problemCount },
  );
}
