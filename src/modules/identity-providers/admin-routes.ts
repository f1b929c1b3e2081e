import type { GatewayModule } from '../../core/app.js';
import { DataOf, IdParams, PageOf, Success } from '../../core/http-schemas.js';
import { DataWithDroppedSecrets } from '../../core/trust-boundary.js';
import type { IdentityProviderService } from './providers.js';
import {
  IdentityProvider,
  IdentityProviderChange,
  IdentityProviderListQuery,
  NewIdentityProvider,
} from './schemas.js';

const access = { scope: 'admin:users' } as const;
const tags = ['admin'];

/** OpenID Connect providers (`admin:users`), registered under `/api/admin/identity-providers`. */
export const identityProviderRoutes: GatewayModule<{ providers: IdentityProviderService }> = async (
  app,
  { providers },
) => {
  app.get(
    '/',
    {
      config: access,
      schema: {
        tags,
        summary: 'List the single sign-on providers (never their client secrets)',
        querystring: IdentityProviderListQuery,
        response: { 200: PageOf(IdentityProvider) },
      },
    },
    async (request) => providers.list(request.query),
  );

  app.post(
    '/',
    {
      config: { ...access, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Add an OpenID Connect provider',
        description:
          'The issuer must answer `/.well-known/openid-configuration` (through the egress guard; 422 ' +
          '`ISSUER_DISCOVERY_FAILED`, `EGRESS_DENIED` or `PROVIDER_UNREACHABLE` otherwise). The issuer is https, ' +
          'or http on loopback with `INFRAGATE_EGRESS=any`. Register `redirectUri` (answered) at the provider. ' +
          'Duplicate name → 409 `IDENTITY_PROVIDER_NAME_TAKEN`.',
        body: NewIdentityProvider,
        response: { 201: DataOf(IdentityProvider) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await providers.create(request.actor, request.body) }),
  );

  app.get(
    '/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Get a single sign-on provider',
        params: IdParams,
        response: { 200: DataOf(IdentityProvider) },
      },
    },
    async (request) => ({ data: await providers.get(request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      config: { ...access, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Change a single sign-on provider (the fields sent; `clientSecret` replaces the secret)',
        description:
          'A new issuer is discovered again, and drops the stored client secret unless `clientSecret` is ' +
          'sent in the same request (`droppedSecrets` names it; the provider signs nobody in until a secret ' +
          'is sent). `groupsClaim` or `defaultGroup` null clears it.',
        params: IdParams,
        body: IdentityProviderChange,
        response: { 200: DataWithDroppedSecrets(IdentityProvider) },
      },
    },
    async (request) => providers.update(request.actor, request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Remove a single sign-on provider (accounts it created stay)',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await providers.delete(request.actor, request.params.id);
      return { success: true };
    },
  );
};
