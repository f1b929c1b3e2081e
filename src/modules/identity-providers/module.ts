import type { GatewayModule } from '../../core/app.js';
import { identityProviderRoutes } from './admin-routes.js';
import { OidcClient } from './oidc-client.js';
import { IdentityProviderService } from './providers.js';
import { OidcSignInService } from './sign-in.js';
import { signInRoutes } from './sign-in-routes.js';

/**
 * Single sign-on through OpenID Connect providers: their administration (`admin:users`) and the
 * public sign-in routes, sharing one relying-party client (its metadata and key caches).
 */
const identityProvidersModule: GatewayModule = async (app) => {
  const { deps } = app;
  const oidc = new OidcClient(deps);
  await app.register(identityProviderRoutes, {
    prefix: '/api/admin/identity-providers',
    providers: new IdentityProviderService({ ...deps, oidc }),
  });
  await app.register(signInRoutes, {
    signIn: new OidcSignInService({ ...deps, oidc }),
  });
};

export default identityProvidersModule;
