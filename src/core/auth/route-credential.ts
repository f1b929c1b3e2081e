import type { FastifyRequest } from 'fastify';
import type { Actor } from '../actor.js';
import type { TokenScheme } from '../openapi/security.js';

/**
 * A narrow credential that one route accepts besides API tokens and sessions, such as a pages deploy
 * token on the deployment upload. The route declares it in `config.credential`; authentication
 * hands a bearer secret of this kind to it instead of the principal resolver, and every route that
 * does not declare it refuses such a secret with 401 (it is not an `igw_` token). Nothing else about
 * authentication changes.
 */
export interface RouteCredential {
  /** The security scheme that documents this credential in /openapi.json. */
  readonly scheme: TokenScheme;
  /** A cheap shape check (the secret's prefix and length), made before any lookup. */
  recognises(secret: string): boolean;
  /** The caller the secret stands for, or null when it is unknown, revoked or expired (401). */
  authenticate(secret: string, request: FastifyRequest): Promise<Actor | null>;
  /** Throws 403 when this caller may not use this route with these parameters. */
  authorize(actor: Actor, request: FastifyRequest): Promise<void>;
}
