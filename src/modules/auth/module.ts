import type { GatewayModule } from '../../core/app.js';
import type { UserService } from '../users/service.js';
import { LoginService } from './login.js';
import { LoginChallenges } from './login-challenges.js';
import { loginRoutes } from './login-routes.js';
import { LoginThrottle } from './login-throttle.js';
import { authRoutes } from './routes.js';
import { AuthService } from './service.js';
import { TotpService } from './totp.js';
import { totpRoutes } from './totp-routes.js';

/**
 * Login (password and second factor), sessions, API tokens and the caller's TOTP: builds the
 * services once and registers their routes. It answers a login with the user record, so it is
 * handed the users area's service (see `users/module.ts`).
 */
const authModule: GatewayModule<{ users: UserService }> = async (app, { users }) => {
  const { deps } = app;
  const throttle = new LoginThrottle(deps);
  // Single sign-on (identity-providers) counts its refusals in the same throttle.
  deps.signInThrottle.serve(throttle);
  const totp = new TotpService({ ...deps, throttle });
  const challenges = new LoginChallenges(deps);
  await app.register(loginRoutes, {
    login: new LoginService({ ...deps, users, throttle, challenges, totp }),
  });
  await app.register(authRoutes, { auth: new AuthService({ ...deps, throttle }) });
  await app.register(totpRoutes, { totp });
};

export default authModule;
