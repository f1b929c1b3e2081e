import { describe, expect, it } from 'vitest';
import { checkScope, unusableGrants } from './scope-checks';

const ORDERS = '0b5c6f3e-1d2a-4c8b-9e7f-112233445566';
const resources = [{ area: 'databases' as const, id: ORDERS, name: 'orders-cache' }];

describe('a scope checked as it is added', () => {
  it('names the resource of a resource scope', () => {
    expect(checkScope(`databases:read:${ORDERS}`, resources)).toEqual({
      scope: `databases:read:${ORDERS}`,
      label: 'databases:read: orders-cache',
    });
  });

  it('flags an unknown area, saying which areas there are', () => {
    expect(checkScope('dtabases:view', resources).problem).toMatch(
      /^Unknown area "dtabases" \(one of admin,/,
    );
  });

  it('flags an unknown permission of a known area', () => {
    expect(checkScope('containerhost:veiw', resources).problem).toBe(
      'Unknown permission "veiw" in containerhost (one of view, manage or *).',
    );
  });

  it('flags a resource none of the visible ones has', () => {
    expect(checkScope('databases:read:0b5c6f3e-1d2a-4c8b-9e7f-000000000000', resources).problem).toBe(
      'No databases resource you can see has this id, so it grants nothing.',
    );
  });

  it('leaves an area-wide scope as it is', () => {
    expect(checkScope('logging:view', resources)).toEqual({ scope: 'logging:view', label: 'logging:view' });
  });
});

describe('grants that cannot be used', () => {
  it('warns of a permission without the view of its area', () => {
    expect(unusableGrants(['databases:read'])).toEqual([
      'databases:read cannot be used without databases:view: the databases area stays hidden. Add databases:view too.',
    ]);
  });

  it('asks for the view of the same resource for a resource scope', () => {
    expect(
      unusableGrants([`databases:read:${ORDERS}`, 'databases:view:0b5c6f3e-1d2a-4c8b-9e7f-000000000000']),
    ).toEqual([
      `databases:read:${ORDERS} cannot be used without databases:view:${ORDERS}: the databases area stays hidden. Add databases:view:${ORDERS} too.`,
    ]);
  });

  it('accepts manage, which includes view, and an area-wide view for a resource', () => {
    expect(unusableGrants(['logging:manage', 'databases:view', `databases:write:${ORDERS}`, '*'])).toEqual(
      [],
    );
  });
});
