import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { Actor } from './actor.js';
import type { RouteResource } from './auth/resource-routes.js';
import type { RouteCredential } from './auth/route-credential.js';
import type { AUTHENTICATED, RequiredScope } from './auth/scopes.js';
import type { Deps } from './deps.js';
import type { HttpsPort } from './https-policy.js';

/** The gateway's Fastify instance, typed through TypeBox schemas. */
export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** One area of the gateway: a Fastify plugin (`modules/<area>/module.ts`), optionally with options. */
export type GatewayModule<Options extends Record<string, unknown> = Record<never, never>> =
  FastifyPluginAsyncTypebox<Options>;

/** Route-level access declaration: exactly one of these on every route. */
export interface RouteAccess {
  /** The scope the caller needs, or `authenticated` for any signed-in caller. */
  scope?: RequiredScope | typeof AUTHENTICATED;
  /** Reachable without a token (health, docs, login, public pages). */
  public?: boolean;
  /** A narrow credential this route also accepts (e.g. a pages deploy token), beside `scope`. */
  credential?: RouteCredential;
  /**
   * Set by authentication from the route's URL and scope (`src/core/auth/resource-routes.ts`), never
   * by the route: which resource scopes it accepts.
   */
  resource?: RouteResource;
}

/** Every registered route with its access declaration (tests check that none is left undeclared). */
export interface RouteRecord {
  method: string;
  url: string;
  scope: string | undefined;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    routeCatalog: RouteRecord[];
    /** Where plain HTTP is redirected to; the TLS listener reports the port it bound. */
    httpsPort: HttpsPort;
  }
  interface FastifyRequest {
    actor: Actor;
  }
  interface FastifyContextConfig extends RouteAccess {}
}
