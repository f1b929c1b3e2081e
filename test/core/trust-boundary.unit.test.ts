import { describe, expect, it } from 'vitest';
import { destinationMoved, movedDestinations, secretsToDrop } from '../../src/core/trust-boundary.js';

describe('where a secret is sent', () => {
  it('moves with the scheme, the host or the port of a key-value URL', () => {
    expect(destinationMoved('redis://cache:6379', 'rediss://cache:6379')).toBe(true);
    expect(destinationMoved('redis://cache:6379', 'redis://other:6379')).toBe(true);
    expect(destinationMoved('redis://cache:6379', 'redis://cache:6380')).toBe(true);
  });

  it("does not move for the key-value scheme's default port written out, or the host in capitals", () => {
    expect(destinationMoved('redis://cache', 'redis://CACHE:6379')).toBe(false);
    expect(destinationMoved('rediss://cache', 'rediss://cache:6379')).toBe(false);
  });

  it('moves with the path prefix of an HTTP base URL, not with a trailing slash', () => {
    expect(destinationMoved('https://git.example/gitlab', 'https://git.example/other')).toBe(true);
    expect(destinationMoved('https://git.example/gitlab', 'https://git.example/gitlab/')).toBe(false);
  });

  it('names the fields a change moves, leaving out those not given or given unmoved', () => {
    const stored = { url: 'redis://cache:6379', issuer: 'https://id.example', name: 'cache' };
    expect(movedDestinations(stored, { url: 'redis://other' }, ['url', 'issuer'])).toEqual(['url']);
    expect(movedDestinations(stored, { url: 'redis://cache' }, ['url', 'issuer'])).toEqual([]);
    expect(movedDestinations(stored, {}, ['url', 'issuer'])).toEqual([]);
  });

  it('drops only the stored secrets a moving change does not send again', () => {
    const secrets = {
      password: { stored: true, supplied: false },
      token: { stored: true, supplied: true },
      key: { stored: false, supplied: false },
    };
    expect(secretsToDrop(true, secrets)).toEqual(['password']);
    expect(secretsToDrop(false, secrets)).toEqual([]);
  });
});
