import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configProblems as problems } from '../unit-support/config-problems.js';

describe('notification settings', () => {
  it('link to http://HOST:PORT by default, and to the machine’s name when listening on every address', () => {
    expect(loadConfig({}).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ HOST: '::1', PORT: '9000' }).publicUrl).toBe('http://[::1]:9000');
    expect(loadConfig({ HOST: '0.0.0.0' }).publicUrl).toBe(`http://${os.hostname()}:8080`);
  });

  it('take INFRAGATE_PUBLIC_URL without its trailing slash', () => {
    expect(loadConfig({ INFRAGATE_PUBLIC_URL: 'https://gateway.example.com/ops/' }).publicUrl).toBe(
      'https://gateway.example.com/ops',
    );
  });

  it('refuse a public URL that is not http(s) or carries a query', () => {
    expect(problems({ INFRAGATE_PUBLIC_URL: 'gateway.example.com' })[0]).toMatch(/^INFRAGATE_PUBLIC_URL=/);
    expect(problems({ INFRAGATE_PUBLIC_URL: 'ftp://gateway.example.com' })).toHaveLength(1);
    expect(problems({ INFRAGATE_PUBLIC_URL: 'https://gateway.example.com/?x=1' })).toHaveLength(1);
  });

  it('have the documented defaults', () => {
    expect(loadConfig({}).notify).toEqual({
      sweepSeconds: 300,
      chainVerifySeconds: 3600,
      chainFullWalkSeconds: 86_400,
      pollIntervalMs: 1000,
      maxAttempts: 10,
      retryBaseMs: 10_000,
      retryMaxMs: 3_600_000,
      leaseSeconds: 60,
      concurrency: 4,
      sendTimeoutMs: 10_000,
    });
    expect(loadConfig({ INFRAGATE_NOTIFY_SWEEP_SECONDS: '30' }).notify.sweepSeconds).toBe(30);
  });

  it('refuse a send deadline that is not shorter than the lease, which could send twice', () => {
    const [problem] = problems({
      INFRAGATE_NOTIFY_TIMEOUT_MS: '60000',
      INFRAGATE_NOTIFY_LEASE_SECONDS: '60',
    });
    expect(problem).toMatch(/^INFRAGATE_NOTIFY_TIMEOUT_MS=60000 is invalid: expected less than/);
    expect(problems({ INFRAGATE_NOTIFY_SWEEP_SECONDS: '0' })).toHaveLength(1);
  });

  it('take a send deadline just shorter than the lease', () => {
    const config = loadConfig({ INFRAGATE_NOTIFY_TIMEOUT_MS: '59999', INFRAGATE_NOTIFY_LEASE_SECONDS: '60' });
    expect(config.notify.sendTimeoutMs).toBe(59_999);
  });

  it('compare the send deadline with the lease only once the lease is accepted', () => {
    expect(problems({ INFRAGATE_NOTIFY_TIMEOUT_MS: '70000', INFRAGATE_NOTIFY_LEASE_SECONDS: 'abc' })).toEqual(
      ['INFRAGATE_NOTIFY_LEASE_SECONDS=abc is invalid: expected an integer from 1 to 3600'],
    );
  });
});
