import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAttempts } from '../../src/db/schema/index.js';
import { auditEventsMatching } from '../support/audit-events.js';
import type { CallResult, TestGateway } from '../support/gateway.js';
import { startTestGateway } from '../support/gateway.js';
import {
  codeFor,
  createPasswordUser,
  enrolTotp,
  type PasswordUser,
  passwordLogin,
  sessionTokenOf,
  wrongCodeFor,
} from './helpers.js';

// Attempts sent together must not all be checked before the first of them is counted: each
// reserves its place under the limit first (a wrong guess is then a failure, a right one stops
// counting).
const LIMIT = 5;
const TOGETHER = 20;

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ loginMaxFailuresPerEmail: LIMIT, loginMaxFailuresPerAddress: 1000 });
});
afterAll(() => gateway.close());

/** How many of the answers checked the secret (a plain 401), and how many the throttle refused. */
function tally(results: CallResult[]) {
  const throttled = results.filter((result) => result.body?.details?.reason === 'TOO_MANY_FAILED_LOGINS');
  const checked = results.filter(
    (result) => result.status === 401 && result.body?.details?.reason === undefined,
  );
  return { checked: checked.length, throttled: throttled.length, answered: results.length };
}

const together = (send: () => Promise<CallResult>) =>
  Promise.all(Array.from({ length: TOGETHER }, () => send()));

const secondStep = (body: Record<string, unknown>) =>
  gateway.call('POST', '/auth/login/totp', { token: null, body });

async function userWithTotp(): Promise<PasswordUser & { secret: string; recoveryCodes: string[] }> {
  const user = await createPasswordUser(gateway);
  return { ...user, ...(await enrolTotp(gateway, await sessionTokenOf(gateway, user))) };
}

async function challengeOf(user: PasswordUser): Promise<string> {
  const result = await passwordLogin(gateway, user);
  expect(result.status).toBe(200);
  return result.body.data.challengeToken;
}

describe('wrong secrets sent together', () => {
  it(`check at most ${LIMIT} passwords of ${TOGETHER} for one email; the others are throttled`, async () => {
    const user = await createPasswordUser(gateway);
    const results = await together(() => passwordLogin(gateway, { ...user, password: 'wrong password' }));
    expect(tally(results)).toEqual({ checked: LIMIT, throttled: TOGETHER - LIMIT, answered: TOGETHER });
    const failures = await auditEventsMatching(gateway, { action: 'auth.login.failed', actorId: user.id });
    expect(failures).toHaveLength(LIMIT);
  });

  it(`check at most ${LIMIT} second-factor codes of ${TOGETHER} for one account`, async () => {
    const user = await userWithTotp();
    const challengeToken = await challengeOf(user);
    const code = await wrongCodeFor(user.secret);
    const results = await together(() => secondStep({ challengeToken, code }));
    expect(tally(results)).toEqual({ checked: LIMIT, throttled: TOGETHER - LIMIT, answered: TOGETHER });
  });

  it(`check at most ${LIMIT} recovery codes of ${TOGETHER} for one account`, async () => {
    const user = await userWithTotp();
    const challengeToken = await challengeOf(user);
    const results = await together(() => secondStep({ challengeToken, recoveryCode: 'aaaa-bbbb-cccc-dddd' }));
    expect(tally(results)).toEqual({ checked: LIMIT, throttled: TOGETHER - LIMIT, answered: TOGETHER });
  });

  it('leave nothing counting as an attempt once answered', async () => {
    const user = await createPasswordUser(gateway);
    await together(() => passwordLogin(gateway, { ...user, password: 'wrong password' }));
    expect(await gateway.deps.db.select().from(signInAttempts)).toEqual([]);
  });
});

describe('right secrets', () => {
  it('sent together within the limit all sign in', async () => {
    const user = await createPasswordUser(gateway);
    const results = await Promise.all(Array.from({ length: LIMIT }, () => passwordLogin(gateway, user)));
    expect(results.map((result) => result.status)).toEqual(Array(LIMIT).fill(200));
  });

  it('do not count as failures afterwards', async () => {
    const user = await createPasswordUser(gateway);
    await Promise.all(Array.from({ length: LIMIT }, () => passwordLogin(gateway, user)));
    for (let failure = 1; failure < LIMIT; failure++)
      expect((await passwordLogin(gateway, { ...user, password: 'wrong password' })).status).toBe(401);
    expect((await passwordLogin(gateway, user)).status).toBe(200);
  });

  it('of the second step do not count as failures afterwards', async () => {
    const user = await userWithTotp();
    const [first, second] = user.recoveryCodes;
    for (const recoveryCode of [first, second])
      expect((await secondStep({ challengeToken: await challengeOf(user), recoveryCode })).status).toBe(200);
    const challengeToken = await challengeOf(user);
    const wrong = await wrongCodeFor(user.secret);
    for (let failure = 1; failure < LIMIT; failure++)
      expect((await secondStep({ challengeToken, code: wrong })).status).toBe(401);
    expect((await secondStep({ challengeToken, code: await codeFor(user.secret, 1) })).status).toBe(200);
  });
});

describe('attempts from one address sent together', () => {
  it(`check at most the address's limit, whatever emails they name`, async () => {
    const strict = await startTestGateway({
      loginMaxFailuresPerEmail: 1000,
      loginMaxFailuresPerAddress: LIMIT,
    });
    try {
      const results = await Promise.all(
        Array.from({ length: TOGETHER }, (_, index) =>
          passwordLogin(strict, { email: `nobody-${index}@test`, password: 'wrong password' }),
        ),
      );
      expect(tally(results)).toEqual({ checked: LIMIT, throttled: TOGETHER - LIMIT, answered: TOGETHER });
    } finally {
      await strict.close();
    }
  });
});
