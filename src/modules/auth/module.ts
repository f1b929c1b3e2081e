import type { GatewayModule } from '../../core/app.js';
import { AccountService } from './account.js';
import { LoginService } from './login.js';
import { LoginChallenges } from './login-challenges.js';
import { loginRoutes } from './login-routes.js';
import { LoginThrottle } from './login-throttle.js';
import { authRoutes } from './routes.js';
import { removeTotp, TotpService } from './totp.js';
import { totpRoutes } from './totp-routes.js';

/**
 * Login (password and second factor), sessions, API tokens and the caller's TOTP: builds the
 * services once and registers their routes. Sessions and tokens are issued by core
 * (`core/auth/tokens.ts`); the ports of other ways in and of the users area are served here.
 */
const authModule: GatewayModule = async (app) => {
  const { deps } = app;
  const throttle = new LoginThrottle(deps);
  // Single sign-on (identity-providers) counts its refusals in the same throttle.
  deps.signInThrottle.serve(throttle);
  // An administrator's TOTP reset (users) removes the enrolment kept here.
  deps.secondFactors.serve({ remove: removeTotp });
  const totp = new TotpService({ ...deps, throttle });
  const challenges = new LoginChallenges(deps);
  await app.register(loginRoutes, {
    prefix: '/auth/login',
    login: new LoginService({ ...deps, throttle, challenges, totp }),
  });
  await app.register(authRoutes, { prefix: '/auth', account: new AccountService({ ...deps, throttle }) });
  await app.register(totpRoutes, { prefix: '/auth/me/totp', totp });
};

export default authModule;
