/**
 * The path patterns of `_redirects` sources and `_headers` rules (the Netlify / Cloudflare Pages
 * forms): a path starting with `/`, at most one splat `*` (any characters, `/` included, named
 * `:splat`), and placeholders `:name` that stand for one whole path segment. Matching is exact
 * otherwise: case-sensitive, no query string, `/a` and `/a/` are different paths.
 */

/** Values a pattern captured, by placeholder name (`splat` for the `*`). */
export type Captures = Record<string, string>;

export interface PathPattern {
  readonly source: string;
  /** No splat and no placeholder: the pattern matches one path only. */
  readonly literal: boolean;
  match(path: string): Captures | undefined;
}

const PLACEHOLDER_SEGMENT = /^:([A-Za-z_]\w*)$/;
const ESCAPE = /[.*+?^${}()|[\]\\]/g;

/** Request paths longer than this match no dynamic pattern (keeps matching cheap on hostile URLs). */
export const MAX_MATCHED_PATH = 2048;

/** Compiles a pattern, or answers why it is not one. */
export function compilePathPattern(source: string): PathPattern | string {
  if (!source.startsWith('/')) return 'a path pattern must start with /';
  if (source.includes('?')) return 'patterns match the path only; query strings are not matched';
  if (source.includes('#')) return 'fragments are never sent to the server; remove the #…';
  if ((source.match(/\*/g) ?? []).length > 1) return 'a pattern may hold one splat (*) only';
  const names = new Set<string>();
  const parts: string[] = [];
  for (const segment of source.split('/')) {
    const placeholder = PLACEHOLDER_SEGMENT.exec(segment);
    if (placeholder) {
      const name = placeholder[1]!;
      if (name === 'splat') return ':splat names what * matched; it cannot be a placeholder';
      if (names.has(name)) return `the placeholder :${name} appears twice`;
      names.add(name);
      parts.push(`(?<${name}>[^/]+)`);
    } else if (/:[A-Za-z_]/.test(segment)) {
      return `placeholders stand for a whole path segment (/:name/); "${segment}" mixes one with text`;
    } else {
      parts.push(
        segment
          .split('*')
          .map((piece) => piece.replace(ESCAPE, '\\$&'))
          .join('(?<splat>.*)'),
      );
    }
  }
  if (names.size === 0 && !source.includes('*')) {
    return { source, literal: true, match: (path: string) => (path === source ? {} : undefined) };
  }
  const regex = new RegExp(`^${parts.join('/')}$`);
  return {
    source,
    literal: false,
    match: (path: string) => {
      if (path.length > MAX_MATCHED_PATH) return undefined;
      const found = regex.exec(path);
      return found ? { ...found.groups } : undefined;
    },
  };
}

/**
 * Puts captured values into a destination or header value in place of `:name` and `:splat`,
 * percent-encoded (`encode`) so the result is safe in a URL or a header; other text stays as written.
 */
export function substitute(template: string, captures: Captures, encode: (value: string) => string): string {
  return template.replace(/:([A-Za-z_]\w*)/g, (whole, name: string) =>
    Object.hasOwn(captures, name) ? encode(captures[name]!) : whole,
  );
}
