import { describe, expect, it } from 'vitest';
import { HEADER_LIMITS, HeaderTable, parseHeaders } from '../../src/modules/pages/site-rules/headers-file.js';

const changes = (text: string, path: string) => {
  const { rules, problems } = parseHeaders(text);
  expect(problems.items).toEqual([]);
  const { set, detach } = new HeaderTable(rules).changesFor(path);
  return { set: Object.fromEntries(set), detach: [...detach] };
};
const problemsOf = (text: string) =>
  parseHeaders(text).problems.items.map(({ line, message }) => ({ line, message }));

describe('_headers parsing', () => {
  it('gives a path the indented headers under it, names lowercased', () => {
    expect(changes('/secure\n  X-Frame-Options: DENY\n  Referrer-Policy: no-referrer', '/secure')).toEqual({
      set: { 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' },
      detach: [],
    });
  });

  it('matches other paths not at all', () => {
    expect(changes('/secure\n  X-Frame-Options: DENY', '/open')).toEqual({ set: {}, detach: [] });
  });

  it('matches splats anywhere in the pattern', () => {
    const file = '/*.jpg\n  Cache-Control: max-age=600';
    expect(changes(file, '/img/a.jpg').set).toEqual({ 'cache-control': 'max-age=600' });
    expect(changes(file, '/img/a.png').set).toEqual({});
  });

  it('puts placeholders and :splat in values', () => {
    expect(changes('/movies/:title\n  X-Movie: watching :title', '/movies/up').set).toEqual({
      'x-movie': 'watching up',
    });
    expect(changes('/files/*\n  Link: </raw/:splat>; rel=alternate', '/files/a/b').set).toEqual({
      link: '</raw/a%2Fb>; rel=alternate',
    });
  });

  it('joins the values of a header set by several matching rules', () => {
    const file = '/*\n  X-Robots-Tag: nosnippet\n/static/*\n  X-Robots-Tag: noarchive';
    expect(changes(file, '/static/a.css').set).toEqual({ 'x-robots-tag': 'nosnippet, noarchive' });
  });

  it('takes a header away with ! Name, including one an earlier rule set', () => {
    const file =
      '/*\n  Content-Security-Policy: default-src self\n/legacy/*\n  ! Content-Security-Policy\n  ! X-Frame-Options';
    expect(changes(file, '/legacy/page')).toEqual({
      set: {},
      detach: ['content-security-policy', 'x-frame-options'],
    });
    expect(changes(file, '/page').set).toEqual({ 'content-security-policy': 'default-src self' });
  });

  it('skips comments and blank lines, indented or not', () => {
    expect(changes('# site headers\n/a\n  # why\n\n  X-A: 1', '/a').set).toEqual({ 'x-a': '1' });
  });

  it('keeps everything after the first colon as the value', () => {
    expect(changes('/a\n  Link: <https://example.com:8443/x>', '/a').set).toEqual({
      link: '<https://example.com:8443/x>',
    });
  });
});

describe('_headers mistakes, reported by line', () => {
  it.each([
    ['  X-A: 1', /must follow a path line/],
    ['/a\n  no colon here', /expected "Name: value" or "! Name"/],
    ['/a\n  Bad Name: 1', /not a valid header name/],
    ['/a\n  X-Emoji: ☃', /printable ASCII/],
    ['/a\n  Content-Length: 1', /content-length header is managed by the gateway/],
    ['/a\n  ! ETag', /etag header is managed/],
    ['https://example.com/*\n  X-A: 1', /absolute URL patterns are not supported/],
    ['/a/*/b/*\n  X-A: 1', /one splat/],
  ])('refuses %j', (file, message) => {
    const problems = problemsOf(file);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(message);
  });

  // Each acts beyond the answer that carries it: under /sites/ on the gateway's own origin.
  it.each([
    ['Set-Cookie: session=x', 'set-cookie', /acts on the whole host/],
    ['Clear-Site-Data: "cookies"', 'clear-site-data', /acts on the whole host/],
    ['Strict-Transport-Security: max-age=0', 'strict-transport-security', /acts on the whole host/],
    ['Alt-Svc: h2="elsewhere.example:443"', 'alt-svc', /acts on the whole host/],
    ['NEL: {"report_to":"x","max_age":86400}', 'nel', /acts on the whole host/],
    ['Report-To: {"group":"x","endpoints":[]}', 'report-to', /acts on the whole host/],
    ['Service-Worker-Allowed: /', 'service-worker-allowed', /acts on the whole host/],
    ['Access-Control-Allow-Credentials: true', 'access-control-allow-credentials', /visitor's cookies/],
    ['Refresh: 0; url=https://elsewhere.example/', 'refresh', /write a redirect in _redirects/],
  ])('refuses a site setting or taking away %j', (line, name, reason) => {
    for (const file of [`/a\n  ${line}`, `/a\n  ! ${name.toUpperCase()}`]) {
      expect(problemsOf(file)).toEqual([
        { line: 2, message: expect.stringMatching(new RegExp(`^the ${name} header .*${reason.source}`)) },
      ]);
    }
  });

  it('lets a site send its own content security policy and framing', () => {
    expect(
      problemsOf('/a\n  Content-Security-Policy: frame-ancestors self\n  X-Frame-Options: SAMEORIGIN'),
    ).toEqual([]);
  });

  it('numbers the lines of the file, comments included', () => {
    expect(problemsOf('# one\n/a\n  X-A: 1\n  Bad Name: 2')).toEqual([
      { line: 4, message: expect.stringMatching(/not a valid header name/) },
    ]);
  });

  it('refuses a path without headers', () => {
    expect(problemsOf('/a\n/b\n  X-B: 1')).toEqual([
      { line: 1, message: 'a path needs at least one indented header line after it' },
    ]);
  });

  it('checks the headers of a refused path without calling them misplaced', () => {
    expect(problemsOf('/a?x\n  X-A: 1\n  Bad Name: 2').map((problem) => problem.line)).toEqual([1, 3]);
  });

  it('refuses lines longer than the limit', () => {
    expect(problemsOf(`/a\n  X-A: ${'v'.repeat(HEADER_LIMITS.maxLineLength)}`)).toEqual([
      { line: 2, message: expect.stringMatching(/limited to 2000 characters/) },
      { line: 1, message: 'a path needs at least one indented header line after it' },
    ]);
  });

  it('refuses more path rules than the limit', () => {
    const rules = Array.from({ length: HEADER_LIMITS.maxRules + 1 }, (_, i) => `/p${i}\n  X-A: 1`);
    expect(problemsOf(rules.join('\n'))).toEqual([
      { line: HEADER_LIMITS.maxRules * 2 + 1, message: `at most ${HEADER_LIMITS.maxRules} path rules` },
    ]);
  });

  it('refuses more headers per path than the limit', () => {
    const headers = Array.from({ length: HEADER_LIMITS.maxHeadersPerRule + 1 }, (_, i) => `  X-H${i}: 1`);
    expect(problemsOf(`/a\n${headers.join('\n')}`)).toEqual([
      {
        line: HEADER_LIMITS.maxHeadersPerRule + 2,
        message: `at most ${HEADER_LIMITS.maxHeadersPerRule} headers per path`,
      },
    ]);
  });
});
