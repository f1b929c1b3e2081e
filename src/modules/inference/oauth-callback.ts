/**
 * Reads what a user pasted after a redirect sign-in: the full callback URL (parameters in the query or,
 * failing that, the fragment), its query string alone (with or without `?`), or `code#state` as some
 * providers display it. Answers the parameters when they carry a `code` or an `error`, else undefined.
 * Parameters are kept as pasted, repeated ones included: the code exchange checks them (state,
 * issuer, each parameter given once).
 */
export function parseCallback(raw: string): URLSearchParams | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    if (answersAuthorization(url.searchParams)) return url.searchParams;
    const fragment = new URLSearchParams(url.hash.replace(/^#/, ''));
    return answersAuthorization(fragment) ? fragment : undefined;
  }
  if (/^\??[^#\s]*=/.test(text)) {
    const params = new URLSearchParams(text.replace(/^\?/, ''));
    return answersAuthorization(params) ? params : undefined;
  }
  const hash = text.indexOf('#');
  if (hash > 0 && hash < text.length - 1 && !/\s/.test(text)) {
    return new URLSearchParams({ code: text.slice(0, hash), state: text.slice(hash + 1) });
  }
  return undefined;
}

/** An authorization response carries a code, or an error instead. */
const answersAuthorization = (params: URLSearchParams) => params.has('code') || params.has('error');
