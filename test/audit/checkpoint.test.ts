import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { makeEvents, rewriteFrom, sequenced } from './helpers.js';

let gateway: TestGateway;
let viewer: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  viewer = await gateway.tokenWithScopes(['audit:view']);
  await makeEvents(gateway, 3, 'checkpoint');
  await sequenced(gateway);
});
afterAll(() => gateway.close());

const checkpointOf = async (target: TestGateway) =>
  (await target.call('GET', '/api/audit/checkpoint')).body.data;
const verify = async (target: TestGateway, checkpoint?: { seq: number; hash: string }) =>
  (
    await target.call('GET', '/api/audit/verify', {
      query: checkpoint ? { checkpointSeq: checkpoint.seq, checkpointHash: checkpoint.hash } : {},
    })
  ).body.data;

describe('GET /api/audit/checkpoint', () => {
  it("answers the chain's head seq and hash, signed so that the published public key verifies it", async () => {
    const result = await gateway.call('GET', '/api/audit/checkpoint', { token: viewer });
    expect(result.status).toBe(200);
    const checkpoint = result.body.data;
    const report = await verify(gateway);
    expect(checkpoint).toMatchObject({ seq: report.headSeq, hash: report.headHash, algorithm: 'Ed25519' });
    expect(checkpoint.signedText).toContain(`seq ${checkpoint.seq}\nhash ${checkpoint.hash}`);
    const publicKey = crypto.createPublicKey(checkpoint.publicKey);
    const signature = Buffer.from(checkpoint.signature, 'base64');
    expect(crypto.verify(null, Buffer.from(checkpoint.signedText), publicKey, signature)).toBe(true);
    expect(
      crypto.verify(null, Buffer.from(checkpoint.signedText.replace('seq', 'seq 9')), publicKey, signature),
    ).toBe(false);
  });

  it('signs with a key derived from the master key: the same on every call, different for another gateway', async () => {
    const other = await startTestGateway();
    try {
      const [first, second, foreign] = [
        await checkpointOf(gateway),
        await checkpointOf(gateway),
        await checkpointOf(other),
      ];
      expect(second.keyId).toBe(first.keyId);
      expect(second.publicKey).toBe(first.publicKey);
      expect(foreign.keyId).not.toBe(first.keyId);
      expect(foreign).toMatchObject({ seq: 0, hash: '0'.repeat(64) });
    } finally {
      await other.close();
    }
  });

  it('refuses a request without a token with 401, and a token without audit:view with 403', async () => {
    expectError(await gateway.call('GET', '/api/audit/checkpoint', { token: null }), 401, 'UNAUTHORIZED');
    const token = await gateway.tokenWithScopes(['users:view']);
    expectError(await gateway.call('GET', '/api/audit/checkpoint', { token }), 403, 'FORBIDDEN');
  });
});

describe('GET /api/audit/verify with a kept checkpoint', () => {
  it('reports the chain valid while it still holds the checkpointed events', async () => {
    const checkpoint = await checkpointOf(gateway);
    await makeEvents(gateway, 1, 'after-checkpoint');
    await sequenced(gateway);
    expect(await verify(gateway, checkpoint)).toMatchObject({ valid: true, firstBrokenLink: null });
  });

  it('detects a log rewritten before the checkpoint, though every rewritten link holds', async () => {
    const separate = await startTestGateway();
    try {
      await makeEvents(separate, 4, 'rewritten');
      await sequenced(separate);
      const checkpoint = await checkpointOf(separate);
      await rewriteFrom(separate, 2);
      expect(await verify(separate)).toMatchObject({ valid: true });
      expect(await verify(separate, checkpoint)).toMatchObject({
        valid: false,
        firstBrokenLink: { seq: checkpoint.seq, reason: 'CHECKPOINT_MISMATCH', expected: checkpoint.hash },
      });
    } finally {
      await separate.close();
    }
  });

  it('detects events removed from the end of the log', async () => {
    const separate = await startTestGateway();
    try {
      await makeEvents(separate, 3, 'truncated');
      await sequenced(separate);
      const checkpoint = await checkpointOf(separate);
      await separate.deps.db.execute(sql`delete from audit_events where seq >= 2`);
      expect(await verify(separate)).toMatchObject({ valid: true, headSeq: 1 });
      expect(await verify(separate, checkpoint)).toMatchObject({
        valid: false,
        firstBrokenLink: { seq: checkpoint.seq, reason: 'CHECKPOINT_MISSING', actual: '1' },
      });
    } finally {
      await separate.close();
    }
  });

  it('answers 400 for one checkpoint field without the other, a seq below 1 and a malformed hash', async () => {
    const call = (query: Record<string, string | number>) =>
      gateway.call('GET', '/api/audit/verify', { query });
    expectValidationError(await call({ checkpointSeq: 1 }), ['checkpointHash']);
    expectValidationError(await call({ checkpointHash: 'a'.repeat(64) }), ['checkpointSeq']);
    expectValidationError(await call({ checkpointSeq: 0, checkpointHash: 'a'.repeat(64) }), [
      'checkpointSeq',
    ]);
    expectValidationError(await call({ checkpointSeq: 1, checkpointHash: 'not-a-hash' }), ['checkpointHash']);
  });
});
