import { describe, expect, it } from 'vitest';
import { type AccessRule, mayAccess } from './access';

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
