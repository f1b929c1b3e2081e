import http from 'node:http';
import { listenOnLoopback } from './peers.js';

/**
 * A loopback stand-in for an inference provider's model-list endpoint (no provider API can run
 * here). It answers `GET <prefix>/models` in the common `{object: "list", data: [...]}` shape when
 * the request carries a known API key (in `authorization: Bearer` or `x-api-key`) or an access
 * token that the real authorization server reports active; anything else gets 401. Every request's
 * headers are kept so tests can check what the gateway sent.
 */
export interface ModelListServer {
  url: string;
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export const MODELS = [
  { id: 'model-large', object: 'model', display_name: 'Large' },
  { id: 'model-small', object: 'model' },
];

export async function startModelListServer(options: {
  apiKeys: string[];
  /** Whether an access token is active at the authorization server. */
  isActiveToken?: (token: string) => Promise<boolean>;
  /** Requests without any credential are allowed (a local server). */
  openPaths?: string[];
}): Promise<ModelListServer> {
  const requests: ModelListServer['requests'] = [];
  const server = http.createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    requests.push({ path, headers: request.headers });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET' || !path.endsWith('/models')) return send(404, { error: 'not found' });
    if (options.openPaths?.includes(path)) return send(200, { object: 'list', data: MODELS });
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const key = (request.headers['x-api-key'] as string | undefined) ?? bearer;
    const allowed =
      (key !== undefined && options.apiKeys.includes(key)) ||
      (bearer !== undefined && options.isActiveToken !== undefined && (await options.isActiveToken(bearer)));
    // Like some real providers, the refusal quotes the key it was given.
    if (!allowed)
      return send(401, {
        error: { message: `invalid credentials: ${key ?? 'none'}`, type: 'authentication_error' },
      });
    send(200, { object: 'list', data: MODELS });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
