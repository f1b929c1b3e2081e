import { lazy } from 'react';
import { describe, expect, it } from 'vitest';
import type { RequiredScope } from '../../../../src/core/auth/scopes';
import type { ConsoleArea } from '../area';
import type { Group } from './queries';
import { scopeSuggestions } from './scope-suggestions';

const page = lazy(async () => ({ default: () => null }));
const area = (label: string, anyOf: RequiredScope[]): ConsoleArea => ({
  label,
  path: `/${label.toLowerCase()}`,
  anyOf,
  description: label,
  page,
});
const group = (name: string, scopes: string[]): Group => ({
  id: `id-${name}`,
  name,
  scopes,
  requireMfa: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  userCount: 0,
});

describe('the scopes a group dialog suggests', () => {
  it('offers the wildcard even with no area and no group', () => {
    expect(scopeSuggestions([], [])).toEqual(['*']);
  });

  it("offers each area's scopes and those groups hold already, sorted", () => {
    const suggestions = scopeSuggestions(
      [area('Logging', ['logging:view']), area('Users', ['admin:users'])],
      [group('ops', ['databases:*', 'logging:manage'])],
    );
    expect(suggestions).toEqual(['*', 'admin:users', 'databases:*', 'logging:manage', 'logging:view']);
  });

  it('offers each scope once, however many areas and groups name it', () => {
    const suggestions = scopeSuggestions(
      [area('Logging', ['logging:view']), area('Overview', [])],
      [group('a', ['logging:view', '*']), group('b', ['logging:view'])],
    );
    expect(suggestions).toEqual(['*', 'logging:view']);
  });
});
