import { describe, expect, it } from 'vitest';
import {
  parseRedirects,
  REDIRECT_LIMITS,
  RedirectTable,
} from '../../src/modules/pages/site-rules/redirects-file.js';

const table = (text: string) => {
  const { rules, problems } = parseRedirects(text);
  expect(problems.items).toEqual([]);
  return new RedirectTable(rules);
};
const problemsOf = (text: string) =>
  parseRedirects(text).problems.items.map(({ line, message }) => ({ line, message }));

describe('_redirects parsing', () => {
  it('skips blank lines and # comments', () => {
    expect(parseRedirects('\n# moved pages\n   \n/a /b\n').rules.map((rule) => rule.line)).toEqual([4]);
  });

  it('uses 302 when no status is given', () => {
    expect(table('/old /new').apply('/old', false, '', '')).toEqual({
      kind: 'redirect',
      status: 302,
      location: '/new',
    });
  });

  it.each([301, 302, 303, 307, 308])('redirects with status %i', (status) => {
    expect(table(`/old /new ${status}`).apply('/old', false, '', '')).toEqual({
      kind: 'redirect',
      status,
      location: '/new',
    });
  });

  it('rewrites with 200: the destination file is served at the source path', () => {
    expect(table('/app/* /app/index.html 200').apply('/app/users/7', false, '', '')).toEqual({
      kind: 'serve',
      status: 200,
      path: '/app/index.html',
    });
  });

  it('serves the destination with status 404', () => {
    expect(table('/en/* /en/404.html 404').apply('/en/missing', false, '', '')).toEqual({
      kind: 'serve',
      status: 404,
      path: '/en/404.html',
    });
  });

  it('puts what a splat matched in place of :splat', () => {
    expect(table('/news/* /blog/:splat 301').apply('/news/2024/hello', false, '', '')).toMatchObject({
      location: '/blog/2024/hello',
    });
  });

  it('puts placeholders in the destination, one path segment each', () => {
    const rules = table('/products/:code/:name /items?code=:code&name=:name 301');
    expect(rules.apply('/products/42/lamp', false, '', '')).toMatchObject({
      location: '/items?code=42&name=lamp',
    });
    expect(rules.apply('/products/42/lamp/extra', false, '', '')).toBeUndefined();
  });

  it('percent-encodes what it puts into a destination, except slashes', () => {
    expect(table('/a/* /b/:splat').apply('/a/x y/?#', false, '', '')).toMatchObject({
      location: '/b/x%20y/%3F%23',
    });
  });

  it('matches the path only and keeps the query when the destination has none', () => {
    const rules = table('/search /find 301\n/query /other?fixed=1 301');
    expect(rules.apply('/search', false, '?q=x', '')).toMatchObject({ location: '/find?q=x' });
    expect(rules.apply('/query', false, '?q=x', '')).toMatchObject({ location: '/other?fixed=1' });
  });

  it('keeps a fragment after the query it adds', () => {
    expect(table('/a /b#part 301').apply('/a', false, '?q=1', '')).toMatchObject({ location: '/b?q=1#part' });
  });

  it('redirects to other hosts', () => {
    expect(
      table('/docs/* https://docs.example.com/:splat 308').apply('/docs/a/b', false, '', '/sites/x'),
    ).toEqual({
      kind: 'redirect',
      status: 308,
      location: 'https://docs.example.com/a/b',
    });
  });

  it('puts the site root before destinations on the site', () => {
    expect(table('/old /new 301').apply('/old', false, '', '/sites/docs')).toMatchObject({
      location: '/sites/docs/new',
    });
  });

  it('applies the first matching rule in file order', () => {
    const rules = table('/blog/* /first 301\n/blog/post /second 301');
    expect(rules.apply('/blog/post', false, '', '')).toMatchObject({ location: '/first' });
  });

  it('matches exactly: case, and a trailing slash, count', () => {
    const rules = table('/About /about 301');
    expect(rules.apply('/about', false, '', '')).toBeUndefined();
    expect(rules.apply('/About/', false, '', '')).toBeUndefined();
  });

  it('lets a file at the path win unless the rule is forced with !', () => {
    const rules = table('/page /plain 301\n/forced /elsewhere 301!');
    expect(rules.apply('/page', true, '', '')).toBeUndefined();
    expect(rules.apply('/page', false, '', '')).toMatchObject({ location: '/plain' });
    expect(rules.apply('/forced', true, '', '')).toMatchObject({ location: '/elsewhere' });
  });

  it('percent-encodes non-ASCII destinations and matches percent-encoded sources decoded', () => {
    expect(table('/caf%C3%A9 /Straße 301').apply('/café', false, '', '')).toMatchObject({
      location: '/Stra%C3%9Fe',
    });
  });
});

describe('_redirects mistakes, reported by line', () => {
  it.each([
    ['/only-source', /expected "source destination \[status\]"/],
    ['/a /b 301 Country=us', /condition matching .* is not supported/],
    ['/store id=:id /blog/:id 301', /query-parameter and condition matching/],
    ['/a /b 418', /the status must be one of 301, 302, 303, 307, 308, 200, 404/],
    ['/a /b abc', /the status must be one of/],
    ['https://old.example.com/* /new 301', /domain-level rules are not supported/],
    ['old /new', /must start with \//],
    ['/a?x=1 /b', /query strings are not matched/],
    ['/a#top /b', /fragments are never sent/],
    ['/a/*/b/* /c', /one splat/],
    ['/a/:x/:x /b', /:x appears twice/],
    ['/a/:splat /b', /:splat names what \* matched/],
    ['/posts/:slug.html /b', /whole path segment/],
    ['/a ftp://example.com/', /a path starting with \/ or an http\(s\) URL/],
    ['/a https://example.com/ 200', /a 200 rule serves a file of this site/],
    ['/a https://example.com/ 404', /a 404 rule serves a file of this site/],
    ['/bad%E0%A4%A /b', /not valid percent-encoding/],
  ])('refuses %s', (line, message) => {
    const problems = problemsOf(`# header\n${line}`);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.line).toBe(2);
    expect(problems[0]!.message).toMatch(message);
  });

  it('refuses lines longer than the limit', () => {
    const long = `/a /${'x'.repeat(REDIRECT_LIMITS.maxLineLength)}`;
    expect(problemsOf(long)).toEqual([
      { line: 1, message: expect.stringMatching(/limited to 1000 characters/) },
    ]);
  });

  it('refuses more rules with splats or placeholders than the limit', () => {
    const lines = Array.from({ length: REDIRECT_LIMITS.maxDynamicRules + 1 }, (_, i) => `/d${i}/* /x`);
    expect(problemsOf(lines.join('\n'))).toEqual([
      {
        line: REDIRECT_LIMITS.maxDynamicRules + 1,
        message: expect.stringMatching(/at most 100 rules with a splat/),
      },
    ]);
  });

  it('refuses more plain rules than the limit', () => {
    const lines = Array.from({ length: REDIRECT_LIMITS.maxLiteralRules + 1 }, (_, i) => `/p${i} /x`);
    expect(problemsOf(lines.join('\n'))).toEqual([
      {
        line: REDIRECT_LIMITS.maxLiteralRules + 1,
        message: expect.stringMatching(/at most 2000 rules without/),
      },
    ]);
  });

  it('reports every bad line, not only the first', () => {
    expect(problemsOf('/a\n/b /c\n/d /e 999').map((problem) => problem.line)).toEqual([1, 3]);
  });
});
