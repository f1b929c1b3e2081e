import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from './peers.js';

/**
 * A real OAuth 2.0 / OpenID Connect authorization server (oidc-provider 9) on a loopback port, with
 * authorization code + PKCE and the device authorization grant (RFC 8628) enabled, and its
 * development login/consent pages. The test plays the user through `browser` over plain HTTP.
 *
 * oidc-provider never answers `slow_down`; a thin middleware in front of its token endpoint adds
 * RFC 8628 §3.5 polling-interval enforcement (a poll sooner than the interval answers `slow_down`
 * and raises the interval by 5 seconds).
 */
export interface OidcPeer {
  issuer: string;
  /** Public client for the redirect flow (PKCE, loopback redirect URI). */
  redirectClientId: string;
  redirectUri: string;
  /** Public client for the device flow. */
  deviceClientId: string;
  /** Device flow client whose device codes live 2 seconds. */
  shortDeviceClientId: string;
  endpoints: { authorization: string; token: string; deviceAuthorization: string; userinfo: string };
  browser: OidcBrowser;
  /** Asks the provider whether an access token is active (RFC 7662 introspection). */
  isActive(accessToken: string): Promise<boolean>;
  close(): Promise<void>;
}

export const POLL_INTERVAL_SECONDS = 5;

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
   * Opens the authorization URL, signs in and consents; answers the URL the provider finally sends
   * the browser to (the client's redirect URI with code and state), without loading it.
   */
  async authorize(authorizationUrl: string): Promise<string> {
    const jar = new CookieJar();
    let response = await this.go(jar, authorizationUrl);
    for (let step = 0; step < 20; step++) {
      if (response.redirectedOutside) return response.location!;
      const form = parseForm(response.body, response.url);
      if (!form) throw new Error(`no form on ${response.url}: ${response.body.slice(0, 300)}`);
      response = await this.submit(jar, form, this.fill(form));
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

  private fill(form: Form): Record<string, string> {
    const fields = { ...form.fields };
    if ('login' in fields) fields.login = this.login;
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

/** Starts oidc-provider on a free loopback port. */
export async function startOidcProvider(): Promise<OidcPeer> {
  const { default: Provider } = await import('oidc-provider');
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const redirectUri = 'http://127.0.0.1:1455/auth/callback';
  const deviceGrant = 'urn:ietf:params:oauth:grant-type:device_code';
  const publicClient = { token_endpoint_auth_method: 'none', application_type: 'native' };
  const provider = new Provider(issuer, {
    clients: [
      {
        ...publicClient,
        client_id: 'infragate-redirect',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
      {
        ...publicClient,
        client_id: 'infragate-device',
        redirect_uris: [],
        grant_types: [deviceGrant, 'refresh_token'],
        response_types: [],
      },
      {
        ...publicClient,
        client_id: 'infragate-device-short',
        redirect_uris: [],
        grant_types: [deviceGrant],
        response_types: [],
      },
      {
        client_id: 'resource-server',
        client_secret: 'resource-server-secret',
        redirect_uris: [],
        grant_types: [],
        response_types: [],
      },
    ],
    features: {
      deviceFlow: { enabled: true },
      devInteractions: { enabled: true },
      introspection: { enabled: true, allowedPolicy: async () => true },
    },
    pkce: { required: () => true },
    // Refresh tokens for every client allowed the grant (the default also wants offline_access + consent prompt).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(grant: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: 3600,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 14 * 24 * 3600,
      DeviceCode: (_ctx: unknown, _token: unknown, client: { clientId: string }) =>
        client.clientId === 'infragate-device-short' ? 2 : 600,
    },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    cookies: { keys: ['infragate-test-cookie-key'] },
  });

  // RFC 8628 §3.5 slow_down, which oidc-provider leaves to the deployment.
  const lastPoll = new Map<string, { at: number; interval: number }>();
  interface KoaContext {
    method: string;
    path: string;
    status: number;
    body: unknown;
    req: http.IncomingMessage & { body?: string };
  }
  provider.use(async (ctx: KoaContext, next: () => Promise<void>) => {
    if (ctx.method === 'POST' && ctx.path === '/token') {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      ctx.req.body = raw;
      const params = new URLSearchParams(raw);
      const deviceCode = params.get('device_code');
      if (params.get('grant_type') === deviceGrant && deviceCode) {
        const previous = lastPoll.get(deviceCode);
        const now = Date.now();
        if (previous && now - previous.at < previous.interval * 1000) {
          lastPoll.set(deviceCode, { at: now, interval: previous.interval + 5 });
          ctx.status = 400;
          ctx.body = { error: 'slow_down', error_description: 'polling faster than the interval' };
          return;
        }
        lastPoll.set(deviceCode, { at: now, interval: previous?.interval ?? POLL_INTERVAL_SECONDS });
      }
    }
    await next();
  });

  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  if (actual !== port) throw new Error('oidc-provider did not bind the expected port');

  return {
    issuer,
    redirectClientId: 'infragate-redirect',
    redirectUri,
    deviceClientId: 'infragate-device',
    shortDeviceClientId: 'infragate-device-short',
    endpoints: {
      authorization: `${issuer}/auth`,
      token: `${issuer}/token`,
      deviceAuthorization: `${issuer}/device/auth`,
      userinfo: `${issuer}/me`,
    },
    browser: new OidcBrowser(issuer),
    async isActive(accessToken) {
      const response = await fetch(`${issuer}/token/introspection`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from('resource-server:resource-server-secret').toString('base64')}`,
        },
        body: new URLSearchParams({ token: accessToken }).toString(),
      });
      return ((await response.json()) as { active?: boolean }).active === true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
