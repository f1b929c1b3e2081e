import { describe, expect, it } from 'vitest';
import type { AccessRule } from '../../auth/access';
import type { Group } from './queries';
import { heldSuggestions, scopeSuggestions } from './scope-suggestions';

const NODE = '3f1c2a5e-8d4b-4c1a-9e2f-0a1b2c3d4e5f';
const areas: AccessRule[] = [{ anyOf: ['containerhost:view'] }, { anyOf: ['logging:view'] }];
const groups = [{ scopes: ['audit:*', `containerhost:view:${NODE}`] }] as Group[];

describe('the scopes box suggestions', () => {
  it('start with the wildcard, the areas’ scopes and those groups hold', () => {
    expect(scopeSuggestions(areas, groups)).toEqual([
      {
        group: 'Areas',
        items: ['*', 'audit:*', 'containerhost:view', `containerhost:view:${NODE}`, 'logging:view'],
      },
    ]);
  });

  it('offer every permission on a resource, under its name', () => {
    const [, node] = scopeSuggestions(areas, [], [{ area: 'containerhost', id: NODE, name: 'web-1' }]);
    expect(node).toEqual({
      group: 'engine node web-1',
      items: [`containerhost:view:${NODE}`, `containerhost:manage:${NODE}`, `containerhost:*:${NODE}`],
    });
  });

  it('offer a scope a group holds already only once', () => {
    const [, node] = scopeSuggestions(areas, groups, [{ area: 'containerhost', id: NODE, name: 'web-1' }]);
    expect(node?.items).not.toContain(`containerhost:view:${NODE}`);
  });
});

describe('the scopes a person may give on', () => {
  const suggestions = scopeSuggestions(areas, groups, [{ area: 'containerhost', id: NODE, name: 'web-1' }]);

  it('are those their own scopes cover, without the headings left empty', () => {
    expect(heldSuggestions(suggestions, [`containerhost:*:${NODE}`, 'logging:*'])).toEqual([
      { group: 'Areas', items: [`containerhost:view:${NODE}`, 'logging:view'] },
      { group: 'engine node web-1', items: [`containerhost:manage:${NODE}`, `containerhost:*:${NODE}`] },
    ]);
  });

  it('are all of them for a person holding *', () => {
    expect(heldSuggestions(suggestions, ['*'])).toEqual(suggestions);
  });

  it('are none for a person holding nothing', () => {
    expect(heldSuggestions(suggestions, [])).toEqual([]);
  });
});
