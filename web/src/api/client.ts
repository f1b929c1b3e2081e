import createClient from 'openapi-fetch';
import { ApiError } from './errors';
import type { paths } from './schema';

/**
 * The one API client of the console, typed from the gateway's own OpenAPI document
 * (`npm run openapi` regenerates the types ./schema re-exports). Requests go to the same origin
 * with the session cookie; changes carry the session's CSRF token.
 */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Refusals of these mean "wrong credentials", not "the session ended".
const SIGN_IN_PATHS = new Set(['/auth/login', '/auth/setup', '/auth/setup/check']);

/** The refusal a request gets when no answer came back at all. */
export const UNREACHABLE = { code: 'NETWORK_ERROR', message: 'The gateway cannot be reached' };

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

/** The header a change carries (none before sign-in): for requests made outside `api`, e.g. uploads. */
export function csrfHeader(): Record<string, string> {
  return csrfToken ? { 'x-csrf-token': csrfToken } : {};
}

/**
 * Ends the session when an answer says it is gone: a 401, or a refused CSRF token. Requests made
 * outside `api` (uploads) report their answers here too.
 */
export function noteRefusal(status: number, body: unknown): void {
  if (status === 401 || (status === 403 && new ApiError(403, body).reason === 'CSRF_TOKEN_INVALID')) {
    sessionLost?.();
  }
}

api.use({
  onRequest({ request }) {
    if (!SAFE_METHODS.has(request.method)) {
      for (const [name, value] of Object.entries(csrfHeader())) request.headers.set(name, value);
    }
    return request;
  },
  async onResponse({ response, schemaPath }) {
    if (SIGN_IN_PATHS.has(schemaPath) || response.ok) return response;
    noteRefusal(
      response.status,
      await response
        .clone()
        .json()
        .catch(() => undefined),
    );
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
    throw new ApiError(0, UNREACHABLE);
  }
  if (!answer.response.ok) throw new ApiError(answer.response.status, answer.error);
  return answer.data as T;
}
