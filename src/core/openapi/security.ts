/**
 * How /openapi.json says the way in to each operation: the security schemes, and the requirement a
 * route's access declaration amounts to.
 */
import { CSRF_HEADER, SAFE_METHODS, SESSION_COOKIE } from '../auth/authenticate.js';

/** The narrow tokens some routes take instead of (or beside) API tokens and sessions. */
export type TokenScheme = 'ingestToken' | 'deployToken' | 'metricsToken' | 'agentCredential';

/** How a caller authenticates: given to @fastify/swagger up front, which lists them in the document. */
export const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API token, or the session token login answers (`Authorization: Bearer <token>`)',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      "The console session cookie set by `POST /auth/login`, honoured from the gateway's own origin; a change made with it also needs the `csrf` header.",
  },
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: CSRF_HEADER,
    description:
      'The `csrfToken` answered by login (and by `GET /auth/me`): sent with the session cookie on every change (any method but GET/HEAD).',
  },
  ingestToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'igl_…',
    description:
      'An ingest token of one logging environment (`Authorization: Bearer igl_…`); it opens the ingest endpoints only.',
  },
  deployToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'igp_…',
    description:
      'A deploy token of one pages project (`Authorization: Bearer igp_…`): it uploads deployments of that project and reads the ones it uploaded.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The operator's `INFRAGATE_METRICS_TOKEN` (`Authorization: Bearer <token>`): it opens `GET /metrics` only.",
  },
  agentCredential: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'igwa_…',
    description:
      'The credential of one agent node (`Authorization: Bearer igwa_…`), given to its agent at enrolment: it opens that node’s tunnel (`/agent/connect`) only.',
  },
} as const satisfies Record<string, object> & Record<TokenScheme, object>;

type Requirement = Partial<Record<keyof typeof SECURITY_SCHEMES, []>>;

/** What the document says when no operation says otherwise: the requirement of a guarded read. */
export const GUARDED_READ: Requirement[] = [{ bearer: [] }, { session: [] }];

/**
 * The security requirement of a route: none for a public one (or its own token), else an API token or
 * the session (with the CSRF header for a change), or the narrow token the route also accepts.
 */
export function securityOf(
  methods: string | string[],
  access: { public?: boolean; ownToken?: TokenScheme; credentialScheme?: TokenScheme },
): Requirement[] {
  if (access.public) return access.ownToken ? [{ [access.ownToken]: [] }] : [];
  const changes = [methods].flat().some((method) => !SAFE_METHODS.has(method));
  const requirements: Requirement[] = [{ bearer: [] }, changes ? { session: [], csrf: [] } : { session: [] }];
  if (access.credentialScheme) requirements.push({ [access.credentialScheme]: [] });
  return requirements;
}
