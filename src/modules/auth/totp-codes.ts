import crypto from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { hashTokenSecret } from '../../core/auth/token-secrets.js';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is accepted (clock drift, typing time). */
const TOLERANCE_SECONDS = PERIOD_SECONDS;
const ISSUER = 'infragate';
export const RECOVERY_CODE_COUNT = 10;

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

/** The `otpauth://totp/…` URI an authenticator app reads from the QR code. */
export const otpauthUrl = (secret: string, account: string): string =>
  generateURI({
    issuer: ISSUER,
    label: account,
    secret,
    algorithm: 'sha1',
    digits: 6,
    period: PERIOD_SECONDS,
  });

/**
 * The time step a code belongs to, or undefined when it is wrong or not newer than `afterStep`
 * (the step of the last code accepted: a code is never accepted twice).
 */
export async function acceptedStep(
  secret: string,
  code: string,
  afterStep: number | null,
): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    algorithm: 'sha1',
    digits: 6,
    period: PERIOD_SECONDS,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** Ten recovery codes of 80 random bits each, `xxxx-xxxx-xxxx-xxxx` in lowercase base32. */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = crypto.randomBytes(16);
    const chars = [...bytes].map((byte) => alphabet[byte & 31]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
}

/** What is stored of a recovery code: the SHA-256 of its letters, so spaces, dashes and case do not matter. */
export const recoveryCodeHash = (code: string): string =>
  hashTokenSecret(code.toLowerCase().replace(/[\s-]/g, ''));
