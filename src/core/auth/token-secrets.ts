import crypto from 'node:crypto';

const TOKEN_PREFIX = 'igw_';

/** A new opaque bearer secret: `igw_` + 32 random bytes, base64url. */
export function generateTokenSecret(): string {
  return TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
}

/**
 * Tokens are high-entropy, so a plain SHA-256 is the right stored form (no salt or stretching). Every
 * authenticated request hashes its token: the one-shot `crypto.hash` takes a third of the time of a
 * Hash object.
 */
export function hashTokenSecret(secret: string): string {
  return crypto.hash('sha256', secret, 'hex');
}

/**
 * The CSRF token of a browser session, derived from the session secret rather than drawn at random,
 * so the console can ask for it again after a reload (`GET /auth/me` answers it to the cookie
 * holder). Someone who cannot read the HttpOnly cookie cannot compute it, and the stored hashes of
 * the two reveal nothing about each other.
 */
export function csrfTokenFor(sessionSecret: string): string {
  return `igc_${crypto.createHmac('sha256', 'infragate csrf token').update(sessionSecret).digest('base64url')}`;
}

/** Cheap shape check before any lookup. */
export function looksLikeTokenSecret(value: string): boolean {
  return /^igw_[A-Za-z0-9_-]{43}$/.test(value);
}

/** Constant-time string comparison (for CSRF tokens, HMACs and the like). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
