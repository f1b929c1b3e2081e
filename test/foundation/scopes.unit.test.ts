import { describe, expect, it } from 'vitest';
import {
  checkGrantableScope,
  grantedResources,
  hasAnyGrantOn,
  hasScope,
  hasScopeSomewhere,
  holdsScope,
  intersectScopes,
  type RequiredScope,
  scopeGrants,
} from '../../src/core/auth/scopes.js';

const NODE = '3f1c2a5e-8d4b-4c1a-9e2f-0a1b2c3d4e5f';
const OTHER = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe('scope matching', () => {
  it.each([
    ['*', 'logging:manage', true],
    ['logging:*', 'logging:manage', true],
    ['logging:*', 'pages:view', false],
    ['logging:manage', 'logging:view', true],
    ['logging:view', 'logging:manage', false],
    ['logging:view', 'logging:view', true],
    ['pages:manage', 'logging:view', false],
  ] as [string, RequiredScope, boolean][])('%s grants %s: %s', (granted, required, expected) => {
    expect(scopeGrants(granted, required)).toBe(expected);
  });

  it('an empty scope list grants nothing', () => {
    expect(hasScope([], 'logging:view')).toBe(false);
  });
});

describe('the key-value class ladder', () => {
  it.each([
    ['databases:write', 'databases:read', true],
    ['databases:admin', 'databases:write', true],
    ['databases:admin', 'databases:read', true],
    ['databases:read', 'databases:write', false],
    ['databases:write', 'databases:admin', false],
    // The classes are about commands; registering databases is another permission.
    ['databases:admin', 'databases:view', false],
    ['databases:manage', 'databases:read', false],
  ] as [string, RequiredScope, boolean][])('%s grants %s: %s', (granted, required, expected) => {
    expect(scopeGrants(granted, required)).toBe(expected);
  });

  it('holds on one database too', () => {
    expect(scopeGrants(`databases:write:${NODE}`, 'databases:read', NODE)).toBe(true);
  });
});

describe('resource scopes', () => {
  it.each([
    [`containerhost:view:${NODE}`, 'containerhost:view', NODE, true],
    [`containerhost:view:${NODE}`, 'containerhost:view', OTHER, false],
    [`containerhost:manage:${NODE}`, 'containerhost:view', NODE, true],
    [`containerhost:view:${NODE}`, 'containerhost:manage', NODE, false],
    [`containerhost:*:${NODE}`, 'containerhost:manage', NODE, true],
    [`containerhost:*:${NODE}`, 'pages:view', NODE, false],
    ['containerhost:view', 'containerhost:view', NODE, true],
    ['*', 'containerhost:manage', NODE, true],
    [`containerhost:view:${NODE.toUpperCase()}`, 'containerhost:view', NODE, true],
  ] as [string, RequiredScope, string, boolean][])(
    '%s grants %s on %s: %s',
    (granted, required, resourceId, expected) => {
      expect(scopeGrants(granted, required, resourceId)).toBe(expected);
    },
  );

  it('a resource scope does not grant the whole area', () => {
    expect(scopeGrants(`containerhost:view:${NODE}`, 'containerhost:view')).toBe(false);
  });

  it('the resources granted are all with an area-wide scope', () => {
    expect(grantedResources([`logging:view:${NODE}`, 'logging:manage'], 'logging:view')).toBe('all');
  });

  it('the resources granted are the ids that reach the permission', () => {
    expect(
      grantedResources(
        [`logging:view:${NODE}`, `logging:manage:${OTHER}`, `pages:view:${NODE}`],
        'logging:manage',
      ),
    ).toEqual([OTHER]);
  });

  it('a permission held on some resource is held somewhere', () => {
    expect(hasScopeSomewhere([`nodes:manage:${NODE}`], 'nodes:view')).toBe(true);
    expect(hasScopeSomewhere([`nodes:view:${NODE}`], 'nodes:manage')).toBe(false);
  });

  it('any permission on a resource makes it known to the caller', () => {
    expect(hasAnyGrantOn([`databases:read:${NODE}`], 'databases', NODE)).toBe(true);
    expect(hasAnyGrantOn(['databases:read'], 'databases', NODE)).toBe(true);
    expect(hasAnyGrantOn([`databases:read:${OTHER}`], 'databases', NODE)).toBe(false);
  });
});

describe('scopes a group may hold', () => {
  it.each([
    '*',
    'logging:view',
    'databases:*',
    `containerhost:manage:${NODE}`,
    `databases:read:${NODE}`,
    `pages:*:${NODE}`,
  ])('accepts %s', (scope) => {
    expect(checkGrantableScope(scope)).toEqual({ scope });
  });

  it('keeps a resource id in lower case', () => {
    expect(checkGrantableScope(`logging:view:${NODE.toUpperCase()}`)).toEqual({
      scope: `logging:view:${NODE}`,
    });
  });

  it.each([
    ['Not A Scope', 'must be *'],
    ['weather:view', 'unknown area "weather"'],
    ['logging:read', 'unknown permission "read" in logging'],
    [`audit:view:${NODE}`, 'audit scopes cannot name a resource'],
    ['containerhost:view:web-1', 'the id of the engine node'],
    ['containerhost:view:*', 'must be a UUID'],
    [`containerhost:view:${NODE}:extra`, 'must be *'],
    ['logging:', 'unknown permission ""'],
  ])('refuses %s', (scope, problem) => {
    const result = checkGrantableScope(scope);
    expect('problem' in result && result.problem).toContain(problem);
  });
});

describe("a token's scopes within its user's (intersectScopes)", () => {
  it.each([
    [['*'], ['logging:view', `nodes:manage:${NODE}`], ['logging:view', `nodes:manage:${NODE}`]],
    [['logging:view'], ['*'], ['logging:view']],
    [['*'], ['*'], ['*']],
    [[`databases:read:${NODE}`], ['databases:*'], [`databases:read:${NODE}`]],
    [['databases:*'], [`databases:read:${NODE}`], [`databases:read:${NODE}`]],
    [['logging:*'], ['logging:manage'], ['logging:manage']],
    [['logging:manage'], ['logging:view'], ['logging:view']],
    [['databases:admin'], ['databases:write'], ['databases:write']],
    [['databases:admin'], ['databases:manage'], []],
    [['logging:view'], ['pages:view'], []],
    [[`nodes:*:${NODE}`], [`nodes:view:${OTHER}`], []],
    [[`nodes:manage:${NODE}`], [`nodes:*:${NODE.toUpperCase()}`], [`nodes:manage:${NODE}`]],
    [['nodes:*'], [`nodes:view:${NODE}`, 'nodes:manage'], ['nodes:manage']],
    [[], ['*'], []],
    [['*'], [], []],
  ])('token %j under user %j: %j', (token, user, expected) => {
    expect(intersectScopes(token, user)).toEqual(expected);
  });

  it('grants exactly what both lists grant, for every permission and resource', () => {
    const lists = [
      ['*'],
      ['databases:*'],
      ['databases:write'],
      [`databases:admin:${NODE}`],
      [`databases:read:${OTHER}`, 'logging:view'],
      ['logging:*', `databases:*:${NODE}`],
      ['logging:manage'],
      [],
    ];
    const required = [
      'databases:read',
      'databases:write',
      'databases:admin',
      'databases:view',
      'logging:view',
      'logging:manage',
    ] as RequiredScope[];
    for (const token of lists)
      for (const user of lists) {
        const both = intersectScopes(token, user);
        for (const scope of required)
          for (const resource of [undefined, NODE, OTHER])
            expect({ token, user, scope, resource, granted: hasScope(both, scope, resource) }).toEqual({
              token,
              user,
              scope,
              resource,
              granted: hasScope(token, scope, resource) && hasScope(user, scope, resource),
            });
      }
  });

  it('ignores scopes that are not scopes', () => {
    expect(intersectScopes(['logging', 'a:b:c:d', 'logging:view'], ['*'])).toEqual(['logging:view']);
  });
});

describe('holding a scope to pass it on (holdsScope)', () => {
  it.each([
    [['*'], '*', true],
    [['*'], `nodes:manage:${NODE}`, true],
    [['databases:*'], `databases:read:${NODE}`, true],
    [['databases:admin'], 'databases:read', true],
    [['logging:manage'], 'logging:view', true],
    [[`nodes:*:${NODE}`], `nodes:manage:${NODE}`, true],
    [['logging:view'], 'logging:manage', false],
    [['logging:view', 'logging:manage'], 'logging:*', false],
    [[`nodes:manage:${NODE}`], 'nodes:manage', false],
    [[`nodes:manage:${NODE}`], `nodes:manage:${OTHER}`, false],
    [['logging:*'], '*', false],
    [['*'], 'not a scope', false],
  ])('%j holds %s: %s', (granted, scope, expected) => {
    expect(holdsScope(granted, scope)).toBe(expected);
  });
});
