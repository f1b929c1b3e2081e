import { type Captures, compilePathPattern, type PathPattern, substitute } from './path-pattern.js';
import { ProblemList, ruleLines } from './problems.js';

/**
 * A deployment's `_redirects` file, in the Netlify / Cloudflare Pages form: one rule per line,
 * `source destination [status]`, `#` comments. Statuses 301, 302 (the default), 303, 307 and 308
 * redirect; 200 serves the destination's file at the source path (a rewrite); 404 serves it with
 * status 404. A file at the requested path wins over a rule unless the status ends in `!` (forced),
 * as on Netlify. Sources are path patterns (see path-pattern.ts); destinations are site paths or
 * http(s) URLs and may use the source's `:placeholders` and `:splat`; the request's query string is
 * kept when the destination has none.
 */

export const REDIRECT_FILE = '_redirects';

export const REDIRECT_LIMITS = { maxLineLength: 1000, maxLiteralRules: 2000, maxDynamicRules: 100 };

const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const;
const SERVING_STATUSES = [200, 404] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];
type ServingStatus = (typeof SERVING_STATUSES)[number];
const DEFAULT_STATUS: RedirectStatus = 302;

export interface RedirectRule {
  line: number;
  from: PathPattern;
  /** As written (non-ASCII percent-encoded); for 200 and 404 only the path, without query or fragment. */
  to: string;
  status: RedirectStatus | ServingStatus;
  force: boolean;
}

export type RedirectOutcome =
  | { kind: 'redirect'; status: RedirectStatus; location: string }
  | { kind: 'serve'; status: ServingStatus; path: string };

/** Percent-encodes what a captured value holds except `/`, so it cannot add a query or a fragment. */
const encodePathValue = (value: string) => encodeURIComponent(value).replace(/%2F/g, '/');
const encodeNonAscii = (text: string) => text.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));

function parseStatus(field: string | undefined): { status: RedirectRule['status']; force: boolean } | string {
  if (field === undefined) return { status: DEFAULT_STATUS, force: false };
  const match = /^(\d{3})(!?)$/.exec(field);
  const status = Number(match?.[1]);
  const known = [...REDIRECT_STATUSES, ...SERVING_STATUSES] as number[];
  if (!match || !known.includes(status))
    return `the status must be one of ${known.join(', ')} (optionally with ! to override an existing file), not "${field}"`;
  return { status: status as RedirectRule['status'], force: match[2] === '!' };
}

function parseDestination(field: string, status: RedirectRule['status']): string | { error: string } {
  const serving = (SERVING_STATUSES as readonly number[]).includes(status);
  if (field.startsWith('/')) return encodeNonAscii(serving ? field.split(/[?#]/, 1)[0]! : field);
  if (serving)
    return { error: `a ${status} rule serves a file of this site: its destination must start with /` };
  if (!/^https?:\/\//i.test(field) || !URL.canParse(field))
    return { error: 'the destination must be a path starting with / or an http(s) URL' };
  return encodeNonAscii(field);
}

function parseLine(text: string, line: number): RedirectRule | string {
  const fields = text.split(/\s+/);
  if (fields.length < 2) return 'expected "source destination [status]"';
  if (fields.length > 3)
    return 'expected "source destination [status]"; query-parameter and condition matching (key=value, Country=, Language=, Role=, Cookie=) is not supported';
  const [source, target, statusField] = fields as [string, string, string?];
  if (/^https?:\/\//i.test(source)) return 'domain-level rules are not supported: the source must be a path';
  let decoded: string;
  try {
    decoded = decodeURI(source);
  } catch {
    return `the source "${source}" is not valid percent-encoding`;
  }
  const from = compilePathPattern(decoded);
  if (typeof from === 'string') return from;
  const status = parseStatus(statusField);
  if (typeof status === 'string') return status;
  const to = parseDestination(target, status.status);
  if (typeof to !== 'string') return to.error;
  return { line, from, to, ...status };
}

/** Parses a `_redirects` file; every problem is reported with its line number. */
export function parseRedirects(
  text: string,
  problems = new ProblemList(REDIRECT_FILE),
): { rules: RedirectRule[]; problems: ProblemList } {
  const rules: RedirectRule[] = [];
  let literal = 0;
  let dynamic = 0;
  for (const { line, trimmed } of ruleLines(text, REDIRECT_LIMITS.maxLineLength, problems)) {
    const rule = parseLine(trimmed, line);
    if (typeof rule === 'string') {
      problems.add(line, rule);
      continue;
    }
    if (rule.from.literal) literal += 1;
    else dynamic += 1;
    if (rule.from.literal && literal > REDIRECT_LIMITS.maxLiteralRules)
      problems.add(line, `at most ${REDIRECT_LIMITS.maxLiteralRules} rules without splat or placeholder`);
    else if (!rule.from.literal && dynamic > REDIRECT_LIMITS.maxDynamicRules)
      problems.add(line, `at most ${REDIRECT_LIMITS.maxDynamicRules} rules with a splat or placeholders`);
    else rules.push(rule);
  }
  return { rules, problems };
}

/** One lookup structure: rules without splat or placeholder by path, the others in file order. */
class RuleIndex {
  private readonly literal = new Map<string, number>();
  private readonly dynamic: number[] = [];

  constructor(private readonly rules: RedirectRule[]) {
    rules.forEach((rule, index) => {
      if (!rule.from.literal) this.dynamic.push(index);
      else if (!this.literal.has(rule.from.source)) this.literal.set(rule.from.source, index);
    });
  }

  /** The first rule in file order that matches the path. */
  first(path: string): { rule: RedirectRule; captures: Captures } | undefined {
    const literalIndex = this.literal.get(path) ?? Number.POSITIVE_INFINITY;
    for (const index of this.dynamic) {
      if (index > literalIndex) break;
      const captures = this.rules[index]!.from.match(path);
      if (captures) return { rule: this.rules[index]!, captures };
    }
    return Number.isFinite(literalIndex) ? { rule: this.rules[literalIndex]!, captures: {} } : undefined;
  }
}

/** The rules of one deployment, ready to match requests. */
export class RedirectTable {
  private readonly all: RuleIndex;
  private readonly forced: RuleIndex;

  constructor(rules: RedirectRule[]) {
    this.all = new RuleIndex(rules);
    this.forced = new RuleIndex(rules.filter((rule) => rule.force));
  }

  /**
   * What the first applicable rule makes of a request for `path` (from the site root, with its
   * leading `/`): only forced rules apply when a file answers the path. `root` is where the site's
   * root is as the visitor sees it (`/sites/docs`, or empty on its own host).
   */
  apply(path: string, fileExists: boolean, query: string, root: string): RedirectOutcome | undefined {
    const found = (fileExists ? this.forced : this.all).first(path);
    if (!found) return undefined;
    const { rule, captures } = found;
    if (rule.status === 200 || rule.status === 404)
      return { kind: 'serve', status: rule.status, path: substitute(rule.to, captures, (value) => value) };
    const target = substitute(rule.to, captures, encodePathValue);
    const [beforeFragment, fragment] = target.split(/(?=#)/, 2) as [string, string?];
    const withQuery =
      query && !beforeFragment.includes('?') ? `${beforeFragment}${query}${fragment ?? ''}` : target;
    return {
      kind: 'redirect',
      status: rule.status,
      location: target.startsWith('/') ? `${root}${withQuery}` : withQuery,
    };
  }
}
