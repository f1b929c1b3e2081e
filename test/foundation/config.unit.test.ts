import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

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

  it('accepts a 32-byte master key in hex or base64', () => {
    expect(loadConfig({ INFRAGATE_MASTER_KEY: 'ab'.repeat(32) }).masterKey).toBe('ab'.repeat(32));
    expect(() => loadConfig({ INFRAGATE_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') })).not.toThrow();
  });
});
