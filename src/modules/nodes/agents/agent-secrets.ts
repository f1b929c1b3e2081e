import crypto from 'node:crypto';

/**
 * The two secrets of an agent node. Each has its own prefix, so neither is ever an API token
 * (`igw_…`): authentication refuses both on every /api route, and each agent route takes only its own.
 */
const ENROLLMENT_PREFIX = 'igwe_';
const CREDENTIAL_PREFIX = 'igwa_';

const secretOf = (prefix: string) => prefix + crypto.randomBytes(32).toString('base64url');
const shaped = (prefix: string, value: string) =>
  value.length === prefix.length + 43 && value.startsWith(prefix) && /^[A-Za-z0-9_-]+$/.test(value.slice(5));

/** A one-time enrolment token, shown once in the enrolment command. */
export const newEnrollmentToken = () => secretOf(ENROLLMENT_PREFIX);
export const looksLikeEnrollmentToken = (value: string) => shaped(ENROLLMENT_PREFIX, value);

/** The agent's long-lived credential, handed over once in exchange for the enrolment token. */
export const newAgentCredential = () => secretOf(CREDENTIAL_PREFIX);
export const looksLikeAgentCredential = (value: string) => shaped(CREDENTIAL_PREFIX, value);
