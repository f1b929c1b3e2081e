import { describe, expect, it } from 'vitest';
import { parseCallback } from '../../src/modules/inference/oauth-callback.js';

const REDIRECT = 'http://localhost:1455/auth/callback';

function read(pasted: string): Record<string, string[]> | undefined {
  const params = parseCallback(pasted);
  if (!params) return undefined;
  return Object.fromEntries([...new Set(params.keys())].map((name) => [name, params.getAll(name)]));
}

describe('parseCallback (the callback a user pastes to complete a redirect sign-in)', () => {
  it('reads code and state from the query of the full callback URL', () => {
    expect(read(`${REDIRECT}?code=abc123&state=xyz`)).toEqual({ code: ['abc123'], state: ['xyz'] });
  });

  it('reads code and state from the fragment when the query has neither code nor error', () => {
    expect(read(`${REDIRECT}?foo=1#code=abc123&state=xyz`)).toEqual({ code: ['abc123'], state: ['xyz'] });
  });

  it('prefers the query when both query and fragment carry a code', () => {
    expect(read(`${REDIRECT}?code=fromQuery&state=s#code=fromFragment&state=s`)).toEqual({
      code: ['fromQuery'],
      state: ['s'],
    });
  });

  it('accepts a callback URL of any scheme, e.g. an app scheme', () => {
    expect(read('com.example.app://callback?code=abc&state=s')).toEqual({ code: ['abc'], state: ['s'] });
  });

  it('keeps every other parameter of the callback, such as iss', () => {
    expect(read(`${REDIRECT}?code=abc&state=s&iss=https%3A%2F%2Fauth.example`)).toEqual({
      code: ['abc'],
      state: ['s'],
      iss: ['https://auth.example'],
    });
  });

  it('decodes percent-encoded values', () => {
    expect(read(`${REDIRECT}?code=a%2Fb%2Bc&state=x%20y`)).toEqual({ code: ['a/b+c'], state: ['x y'] });
  });

  it('reads an error and its error_description instead of a code', () => {
    expect(read(`${REDIRECT}?error=access_denied&error_description=The+user+said+no&state=xyz`)).toEqual({
      error: ['access_denied'],
      error_description: ['The user said no'],
      state: ['xyz'],
    });
  });

  it('reads an error from the fragment', () => {
    expect(read(`${REDIRECT}#error=access_denied&state=xyz`)).toEqual({
      error: ['access_denied'],
      state: ['xyz'],
    });
  });

  it('reads the query string alone, with or without its leading ?', () => {
    expect(read('?code=abc&state=xyz')).toEqual({ code: ['abc'], state: ['xyz'] });
    expect(read('code=abc&state=xyz')).toEqual({ code: ['abc'], state: ['xyz'] });
  });

  it('reads code#state as some providers display it', () => {
    expect(read('abc123#xyz')).toEqual({ code: ['abc123'], state: ['xyz'] });
  });

  it('ignores whitespace around what was pasted', () => {
    expect(read(`  \n${REDIRECT}?code=abc&state=xyz\t `)).toEqual({ code: ['abc'], state: ['xyz'] });
  });

  it('answers a callback without state as it is (the state check then fails)', () => {
    expect(read(`${REDIRECT}?code=abc`)).toEqual({ code: ['abc'] });
  });

  it('keeps a repeated parameter as pasted, so the code exchange can refuse it', () => {
    expect(read(`${REDIRECT}?code=one&code=two&state=xyz`)).toEqual({ code: ['one', 'two'], state: ['xyz'] });
  });

  it('answers nothing for a callback URL with neither code nor error', () => {
    expect(parseCallback(`${REDIRECT}?state=xyz`)).toBeUndefined();
    expect(parseCallback(`${REDIRECT}#state=xyz`)).toBeUndefined();
  });

  it('answers nothing for a query string with neither code nor error', () => {
    expect(parseCallback('state=xyz&foo=bar')).toBeUndefined();
  });

  it('answers nothing for a URL that does not parse', () => {
    expect(parseCallback('http://[not-a-host/callback?code=abc&state=xyz')).toBeUndefined();
  });

  it('answers nothing for an empty or blank paste', () => {
    expect(parseCallback('')).toBeUndefined();
    expect(parseCallback('   \n')).toBeUndefined();
  });

  it('answers nothing for code#state with an empty code or state, or with spaces', () => {
    expect(parseCallback('#xyz')).toBeUndefined();
    expect(parseCallback('abc#')).toBeUndefined();
    expect(parseCallback('abc def#xyz')).toBeUndefined();
  });

  it('answers nothing for plain text', () => {
    expect(parseCallback('abc123')).toBeUndefined();
    expect(parseCallback('I could not sign in')).toBeUndefined();
  });
});
