/** A person's browser at the oidc-provider peer, driven over plain HTTP (no Chromium needed). */

class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

interface Form {
  action: string;
  fields: Record<string, string>;
}

/** The first form of a page (or the one with the given id) with its inputs' names and values. */
function parseForm(html: string, base: string, id?: string): Form | undefined {
  const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)];
  const match = id ? forms.find((form) => form[1]!.includes(`id="${id}"`)) : forms[0];
  if (!match) return undefined;
  const action = /action="([^"]*)"/.exec(match[1]!)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const input of match[2]!.matchAll(/<input\b([^>]*)>/gi)) {
    const name = /name="([^"]*)"/.exec(input[1]!)?.[1];
    if (name) fields[name] = decodeHtml(/value="([^"]*)"/.exec(input[1]!)?.[1] ?? '');
  }
  return { action: new URL(decodeHtml(action), base).href, fields };
}

function decodeHtml(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x2F;/gi, '/')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** A user's browser: follows redirects inside the provider, keeps its cookies, fills its forms. */
export class OidcBrowser {
  constructor(
    private readonly issuer: string,
    private readonly login = 'operator@example.test',
  ) {}

  /**
   * Opens the authorization URL, signs in (as `login`, the account's subject) and consents; answers
   * the URL the provider finally sends the browser to (the client's redirect URI with code and
   * state), without loading it.
   */
  async authorize(authorizationUrl: string, login = this.login): Promise<string> {
    const jar = new CookieJar();
    let response = await this.go(jar, authorizationUrl);
    for (let step = 0; step < 20; step++) {
      if (response.redirectedOutside) return response.location!;
      const form = parseForm(response.body, response.url);
      if (!form) throw new Error(`no form on ${response.url}: ${response.body.slice(0, 300)}`);
      response = await this.submit(jar, form, this.fill(form, login));
    }
    throw new Error('the sign-in did not end in a redirect to the client');
  }

  /** Enters the user code at the verification URI, confirms (or aborts), signs in and consents. */
  async approveDevice(verificationUri: string, userCode: string, decision: 'approve' | 'deny' = 'approve') {
    const jar = new CookieJar();
    let response = await this.go(jar, verificationUri);
    for (let step = 0; step < 20; step++) {
      if (/op\.deviceInputForm/.test(response.body)) {
        const form = parseForm(response.body, response.url, 'op.deviceInputForm')!;
        response = await this.submit(jar, form, { ...form.fields, user_code: userCode });
      } else if (/op\.deviceConfirmForm/.test(response.body)) {
        const form = parseForm(response.body, response.url, 'op.deviceConfirmForm')!;
        const fields =
          decision === 'deny'
            ? { xsrf: form.fields.xsrf!, user_code: form.fields.user_code!, abort: 'yes' }
            : form.fields;
        response = await this.submit(jar, form, fields);
        if (decision === 'deny') return;
      } else {
        const form = parseForm(response.body, response.url);
        if (!form) {
          if (response.status >= 400)
            throw new Error(`device approval failed: ${response.body.slice(0, 300)}`);
          return; // the success page
        }
        response = await this.submit(jar, form, this.fill(form));
      }
    }
    throw new Error('the device approval did not finish');
  }

  private fill(form: Form, login = this.login): Record<string, string> {
    const fields = { ...form.fields };
    if ('login' in fields) fields.login = login;
    if ('password' in fields) fields.password = 'any-password';
    return fields;
  }

  private async submit(jar: CookieJar, form: Form, fields: Record<string, string>) {
    return this.go(jar, form.action, new URLSearchParams(fields));
  }

  /** One request, then redirects followed while they stay on the provider. */
  private async go(jar: CookieJar, url: string, body?: URLSearchParams) {
    let target = url;
    let init: RequestInit = body
      ? {
          method: 'POST',
          body: body.toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }
      : { method: 'GET' };
    for (let hop = 0; hop < 20; hop++) {
      const response = await fetch(target, {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
      });
      jar.store(response);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        const next = new URL(location, target).href;
        if (!next.startsWith(this.issuer)) {
          return { url: target, status: response.status, body: '', location: next, redirectedOutside: true };
        }
        target = next;
        init = { method: 'GET' };
        continue;
      }
      return {
        url: target,
        status: response.status,
        body: await response.text(),
        location: undefined,
        redirectedOutside: false,
      };
    }
    throw new Error('too many redirects');
  }
}
