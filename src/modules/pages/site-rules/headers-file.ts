import { compilePathPattern, type PathPattern, substitute } from './path-pattern.js';
import { ProblemList, ruleLines } from './problems.js';

/**
 * A deployment's `_headers` file, in the Netlify / Cloudflare Pages form: a path pattern on a line
 * of its own, then indented `Name: value` lines that answers for matching paths carry, or `! Name`
 * lines that take a header away (one the gateway sends by default or an earlier rule added). Every
 * matching rule applies; a header set by several rules gets their values joined with `, `. Values
 * may use the pattern's `:placeholders` and `:splat`.
 */

export const HEADERS_FILE = '_headers';

export const HEADER_LIMITS = { maxRules: 100, maxLineLength: 2000, maxHeadersPerRule: 100 };

/**
 * Headers a site may neither set nor take away, and why: the one list of them. Message framing and
 * connection handling, which the server owns, the ETag that conditional requests rely on and the
 * request id are the gateway's. The host-wide ones act beyond the answer that carries them, on what
 * the browser holds for the whole host (under `/sites/` the gateway's own origin, where the console
 * runs): its cookies (`Set-Cookie`, and `Clear-Site-Data`, which would sign every operator out), its
 * transport (HSTS, `Alt-Svc`), reports of every request to it (`NEL`, `Report-To`) and service
 * workers beyond the site's own path. A site's own `Content-Security-Policy` may be set: it can
 * only narrow the sandbox sent beside it, which is kept whatever the rules say.
 */
const SERVER_OWNED = 'is managed by the gateway';
const HOST_WIDE = 'acts on the whole host (under /sites/, on the gateway itself), not on this site alone';
const RESERVED_HEADERS: ReadonlyMap<string, string> = new Map([
  ...[
    'connection',
    'keep-alive',
    'proxy-connection',
    'transfer-encoding',
    'te',
    'trailer',
    'upgrade',
    'content-length',
    'content-encoding',
    'content-range',
    'date',
    'etag',
    'location',
    'x-request-id',
  ].map((name) => [name, SERVER_OWNED] as const),
  ...[
    'set-cookie',
    'clear-site-data',
    'strict-transport-security',
    'alt-svc',
    'nel',
    'report-to',
    'service-worker-allowed',
  ].map((name) => [name, HOST_WIDE] as const),
  ['access-control-allow-credentials', "would let other origins read answers with a visitor's cookies"],
  ['refresh', 'navigates away from the answer: write a redirect in _redirects instead'],
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PRINTABLE = /^[\t\x20-\x7e]*$/;

/** Stands in for a path line that was refused. */
const NO_PATH: PathPattern = { source: '', literal: true, match: () => undefined };

export interface HeaderRule {
  line: number;
  pattern: PathPattern;
  /** Lowercased names with their values as written. */
  set: [string, string][];
  detach: string[];
}

/** What the rules make of one answer's headers: values to send (replacing defaults) and names to drop. */
export interface HeaderChanges {
  set: Map<string, string>;
  detach: Set<string>;
}

function headerName(name: string): string | { error: string } {
  if (!TOKEN.test(name)) return { error: `"${name}" is not a valid header name` };
  const lower = name.toLowerCase();
  const reserved = RESERVED_HEADERS.get(lower);
  if (reserved) return { error: `the ${lower} header ${reserved}` };
  return lower;
}

function parseHeaderLine(text: string, rule: HeaderRule): string | undefined {
  if (text.startsWith('!')) {
    const name = headerName(text.slice(1).trim());
    if (typeof name !== 'string') return name.error;
    rule.detach.push(name);
    return undefined;
  }
  const colon = text.indexOf(':');
  if (colon <= 0) return 'expected "Name: value" or "! Name"';
  const name = headerName(text.slice(0, colon).trim());
  if (typeof name !== 'string') return name.error;
  const value = text.slice(colon + 1).trim();
  if (!PRINTABLE.test(value)) return 'header values must be printable ASCII';
  rule.set.push([name, value]);
  return undefined;
}

function parsePatternLine(text: string, line: number): HeaderRule | string {
  if (/^https?:\/\//i.test(text))
    return 'absolute URL patterns are not supported: write a path (rules apply on every host of the site)';
  let decoded: string;
  try {
    decoded = decodeURI(text);
  } catch {
    return `the pattern "${text}" is not valid percent-encoding`;
  }
  const pattern = compilePathPattern(decoded);
  if (typeof pattern === 'string') return pattern;
  return { line, pattern, set: [], detach: [] };
}

/** Parses a `_headers` file; every problem is reported with its line number. */
export function parseHeaders(
  text: string,
  problems = new ProblemList(HEADERS_FILE),
): { rules: HeaderRule[]; problems: ProblemList } {
  const rules: HeaderRule[] = [];
  // The rule the indented lines belong to; one refused for its path line still takes its header
  // lines (they are checked, then dropped), so they are not reported as misplaced.
  let current: HeaderRule | undefined;
  let headerLines = 0;
  const closeRule = () => {
    if (current && rules.includes(current) && headerLines === 0)
      problems.add(current.line, 'a path needs at least one indented header line after it');
    headerLines = 0;
  };
  for (const { line, raw, trimmed } of ruleLines(text, HEADER_LIMITS.maxLineLength, problems)) {
    if (/^\s/.test(raw)) {
      headerLines += 1;
      const problem = !current
        ? 'a header line must follow a path line (indent headers only)'
        : current.set.length + current.detach.length >= HEADER_LIMITS.maxHeadersPerRule
          ? `at most ${HEADER_LIMITS.maxHeadersPerRule} headers per path`
          : parseHeaderLine(trimmed, current);
      if (problem) problems.add(line, problem);
      continue;
    }
    closeRule();
    const rule = parsePatternLine(trimmed, line);
    if (typeof rule === 'string') {
      problems.add(line, rule);
      current = { line, pattern: NO_PATH, set: [], detach: [] };
    } else if (rules.length >= HEADER_LIMITS.maxRules) {
      problems.add(line, `at most ${HEADER_LIMITS.maxRules} path rules`);
      current = rule;
    } else {
      rules.push(rule);
      current = rule;
    }
  }
  closeRule();
  return { rules, problems };
}

/** The header rules of one deployment, ready to match requests. */
export class HeaderTable {
  constructor(private readonly rules: HeaderRule[]) {}

  /** The changes every rule matching `path` (from the site root, with its leading `/`) makes. */
  changesFor(path: string): HeaderChanges {
    const set = new Map<string, string>();
    const detach = new Set<string>();
    for (const rule of this.rules) {
      const captures = rule.pattern.match(path);
      if (!captures) continue;
      for (const [name, template] of rule.set) {
        const value = substitute(template, captures, encodeURIComponent);
        const before = set.get(name);
        set.set(name, before === undefined ? value : `${before}, ${value}`);
      }
      for (const name of rule.detach) detach.add(name);
    }
    for (const name of detach) set.delete(name);
    return { set, detach };
  }
}
