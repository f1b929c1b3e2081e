import { describe, expect, it } from 'vitest';
import { type AccessRule, mayAccess, mayUse } from './access';

const users: AccessRule = { anyOf: ['admin:users'] };
const overview: AccessRule = { anyOf: ['audit:view', 'certificates:view'] };

describe('who may open an area', () => {
  it('a user holding the scope', () => {
    expect(mayAccess(['admin:users'], users)).toBe(true);
  });

  it('not a user holding another scope', () => {
    expect(mayAccess(['logging:view'], users)).toBe(false);
  });

  it('a user holding * (everything)', () => {
    expect(mayAccess(['*'], users)).toBe(true);
  });

  it('a user holding the area wildcard', () => {
    expect(mayAccess(['audit:*'], overview)).toBe(true);
  });

  it('a user holding manage, for an area that needs view', () => {
    expect(mayAccess(['certificates:manage'], overview)).toBe(true);
  });

  it('not a user holding view, for an area that needs manage', () => {
    expect(mayAccess(['certificates:view'], { anyOf: ['certificates:manage'] })).toBe(false);
  });

  it('a user holding any one of several scopes the area accepts', () => {
    expect(mayAccess(['certificates:view'], overview)).toBe(true);
  });

  it('anyone signed in, for an area that names no scope', () => {
    expect(mayAccess([], { anyOf: [] })).toBe(true);
  });

  it('nobody without scopes, for an area that names one', () => {
    expect(mayAccess([], users)).toBe(false);
  });
});

const NODE = '3f1c2a5e-8d4b-4c1a-9e2f-0a1b2c3d4e5f';

describe('who may open an area with resource scopes', () => {
  it('a user holding the scope on one resource of the area', () => {
    expect(mayAccess([`containerhost:view:${NODE}`], { anyOf: ['containerhost:view'] })).toBe(true);
  });

  it('not a user whose resource scopes are of another area', () => {
    expect(mayAccess([`pages:manage:${NODE}`], { anyOf: ['containerhost:view'] })).toBe(false);
  });
});

describe('who may do something', () => {
  it('on one resource: a user holding the scope on it', () => {
    expect(mayUse([`containerhost:manage:${NODE}`], 'containerhost:manage', NODE)).toBe(true);
  });

  it('on one resource: a user holding the area-wide scope', () => {
    expect(mayUse(['containerhost:manage'], 'containerhost:manage', NODE)).toBe(true);
  });

  it('on the whole area (adding a resource): not a user holding it on one resource only', () => {
    expect(mayUse([`containerhost:manage:${NODE}`], 'containerhost:manage')).toBe(false);
  });
});
