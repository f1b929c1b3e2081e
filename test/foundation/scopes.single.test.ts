import { describe, expect, it } from 'vitest';
import { hasScope, type RequiredScope, scopeGrants } from '../../src/core/auth/scopes.js';

describe('scope matching', () => {
  it.each([
    ['*', 'logging:manage', true],
    ['logging:*', 'logging:manage', true],
    ['logging:*', 'pages:view', false],
    ['logging:manage', 'logging:view', true],
    ['logging:view', 'logging:manage', false],
    ['logging:view', 'logging:view', true],
    ['databases:write', 'databases:read', false],
    ['pages:manage', 'logging:view', false],
  ] as [string, RequiredScope, boolean][])('%s grants %s: %s', (granted, required, expected) => {
    expect(scopeGrants(granted, required)).toBe(expected);
  });

  it('an empty scope list grants nothing', () => {
    expect(hasScope([], 'logging:view')).toBe(false);
  });
});
