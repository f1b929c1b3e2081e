import { boolean, integer, section, text } from './settings.js';

/** Sessions, API tokens and login throttling. */
export const accessSettings = section('Sign-in and tokens', {
  sessionTtlSeconds: integer('INFRAGATE_SESSION_TTL_SECONDS', {
    default: 12 * 3600,
    min: 60,
    max: 365 * 24 * 3600,
    doc: 'Lifetime of a browser session from `POST /auth/login`',
  }),
  cookieSecure: boolean('INFRAGATE_COOKIE_SECURE', {
    default: false,
    doc: 'Mark the session cookie `Secure` (set it when served over HTTPS)',
  }),
  tokenMaxDays: integer('INFRAGATE_TOKEN_MAX_DAYS', {
    min: 1,
    max: 3650,
    unset: 'unset (tokens may never expire)',
    doc: 'Longest lifetime of an API token created through the API, in days; set, it is also the default lifetime',
  }),
  setupCodeTtlSeconds: integer('INFRAGATE_SETUP_CODE_TTL_SECONDS', {
    default: 3600,
    min: 60,
    max: 30 * 24 * 3600,
    doc: 'How long the first-start console setup link (`/setup?code=…`) stays valid',
  }),
  loginMaxFailuresPerEmail: integer('INFRAGATE_LOGIN_MAX_FAILURES', {
    default: 5,
    min: 1,
    max: 1000,
    doc: 'Failed logins per email within the window before further logins for it are refused for the window',
  }),
  loginMaxFailuresPerAddress: integer('INFRAGATE_LOGIN_MAX_FAILURES_PER_ADDRESS', {
    default: 20,
    min: 1,
    max: 100_000,
    doc: 'The same per client address',
  }),
  loginWindowSeconds: integer('INFRAGATE_LOGIN_WINDOW_SECONDS', {
    default: 900,
    min: 10,
    max: 86400,
    doc: 'The login-throttling window (it also counts refused single sign-on callbacks and wrong TOTP codes)',
  }),
  metricsToken: text('INFRAGATE_METRICS_TOKEN', {
    accepts: 'at least 32 characters',
    parse: (given) => (given.length >= 32 ? given : undefined),
    secret: true,
    unset: 'unset (only API tokens with `metrics:view`)',
    doc: 'A bearer token for Prometheus that opens `GET /metrics` only, beside API tokens with the scope `metrics:view`',
  }),
});
