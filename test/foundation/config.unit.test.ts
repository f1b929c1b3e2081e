import { describe, expect, it } from 'vitest';
import { settingsIn } from '../../src/config/settings.js';
import { ConfigError, configSettings, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      egress: 'private',
      logLevel: 'info',
      databaseUrl: undefined,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('reports every bad value at once, one line each', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        INFRAGATE_EGRESS: 'everywhere',
        DATABASE_URL: 'mysql://x',
        INFRAGATE_MASTER_KEY: 'short',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const lines = (error as ConfigError).message.split('\n');
      expect(lines).toHaveLength(4);
      expect(lines.find((line) => line.startsWith('PORT='))).toContain('integer from 0 to 65535');
      expect(lines.find((line) => line.startsWith('INFRAGATE_EGRESS='))).toContain('public, private, any');
    }
  });

  it.each([
    ['PORT', 0, 65535],
    ['INFRAGATE_BODY_LIMIT_BYTES', 1024, 1024 ** 3],
    ['INFRAGATE_SESSION_TTL_SECONDS', 60, 365 * 86_400],
    ['INFRAGATE_NOTIFY_CHAIN_FULL_WALK_SECONDS', 0, 30 * 86_400],
    ['INFRAGATE_UPLOAD_MAX_FILE_BYTES', 1, 2 ** 50],
  ])('takes %s from %i to %i and refuses one past either end', (name, min, max) => {
    expect(() => loadConfig({ [name]: String(min) })).not.toThrow();
    expect(() => loadConfig({ [name]: String(max) })).not.toThrow();
    const expected = `expected an integer from ${min} to ${max}`;
    if (min > 0) expect(() => loadConfig({ [name]: String(min - 1) })).toThrow(expected);
    expect(() => loadConfig({ [name]: String(max + 1) })).toThrow(
      `${name}=${max + 1} is invalid: ${expected}`,
    );
  });

  it('refuses integers written as fractions, exponents or with signs', () => {
    for (const text of ['80.0', '8e1', '+80', '-1', ' 80'])
      expect(() => loadConfig({ PORT: text })).toThrow(`PORT=${text} is invalid`);
  });

  it('takes an upload chunk size up to the largest chunk, not past it', () => {
    const at = { INFRAGATE_UPLOAD_CHUNK_BYTES: '65536', INFRAGATE_UPLOAD_MAX_CHUNK_BYTES: '65536' };
    expect(loadConfig(at).uploadChunkBytes).toBe(65_536);
    expect(() => loadConfig({ ...at, INFRAGATE_UPLOAD_CHUNK_BYTES: '65537' })).toThrow(
      'INFRAGATE_UPLOAD_CHUNK_BYTES=65537 is invalid: expected at most INFRAGATE_UPLOAD_MAX_CHUNK_BYTES (65536)',
    );
  });

  it('leaves a refused database URL or master key out of its message, as they hold secrets', () => {
    try {
      loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db', INFRAGATE_MASTER_KEY: 'hunter2' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'DATABASE_URL is invalid: expected a postgres:// or postgresql:// URL',
        'INFRAGATE_MASTER_KEY is invalid: expected 32 bytes as 64 hex characters or base64',
      ]);
    }
  });

  it('reads an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', HTTPS_PORT: '', INFRAGATE_PAGES_DNS_SERVERS: '' })).toMatchObject({
      port: 8080,
      https: { port: undefined },
      pages: { dnsServers: [] },
    });
  });

  it('declares each variable once', () => {
    const names = settingsIn(configSettings).map((setting) => setting.env);
    expect(names).toEqual([...new Set(names)]);
  });

  it('accepts a 32-byte master key in hex or base64', () => {
    expect(loadConfig({ INFRAGATE_MASTER_KEY: 'ab'.repeat(32) }).masterKey).toBe('ab'.repeat(32));
    expect(() => loadConfig({ INFRAGATE_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') })).not.toThrow();
  });
});
