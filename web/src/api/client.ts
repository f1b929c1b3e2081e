import createClient from 'openapi-fetch';
import { ApiError } from './errors';
import type { paths } from './schema';

/**
 * The one API client of the console, typed from the gateway's own OpenAPI document
 * (`npm run openapi` regenerates ./schema.d.ts). Requests go to the same origin with the session
 * cookie; changes carry the session's CSRF token.
 */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Refusals of these mean "wrong credentials", not "the session ended".
const SIGN_IN_PATHS = new Set(['/auth/login', '/auth/setup', '/auth/setup/check']);

let csrfToken: string | undefined;
let sessionLost: (() => void) | undefined;

/** The session's CSRF token (from login, setup or `GET /auth/me`), sent with every change. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called when the gateway stops accepting the session (expired, revoked, signed out elsewhere). */
export function onSessionLost(listener: (() => void) | undefined): void {
  sessionLost = listener;
}

api.use({
  onRequest({ request }) {
    if (csrfToken && !SAFE_METHODS.has(request.method)) request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
  async onResponse({ response, schemaPath }) {
    if (SIGN_IN_PATHS.has(schemaPath)) return response;
    const lost =
      response.status === 401 ||
      (response.status === 403 &&
        new ApiError(
          403,
          await response
            .clone()
            .json()
            .catch(() => undefined),
        ).reason === 'CSRF_TOKEN_INVALID');
    if (lost) sessionLost?.();
    return response;
  },
});

/**
 * Awaits one call of the client and answers its data, or throws an {@link ApiError} with the
 * gateway's refusal: `useQuery({queryFn: () => call(api.GET('/api/…', {params}))})`.
 */
export async function call<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let answer: Awaited<typeof pending>;
  try {
    answer = await pending;
  } catch {
    throw new ApiError(0, { code: 'NETWORK_ERROR', message: 'The gateway cannot be reached' });
  }
  if (!answer.response.ok) throw new ApiError(answer.response.status, answer.error);
  return answer.data as T;
}
