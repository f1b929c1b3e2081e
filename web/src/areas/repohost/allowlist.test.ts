import { describe, expect, it } from 'vitest';
import { allowlistOptions, entryKey, pickedEntries } from './allowlist';

const group = {
  entryType: 'group' as const,
  remoteId: '11',
  fullPath: 'platform',
  name: 'Platform',
  webUrl: null,
};
const project = {
  entryType: 'project' as const,
  remoteId: '1001',
  fullPath: 'platform/service-1',
  name: 'Service 1',
  webUrl: null,
};

describe('the allowlist picker', () => {
  it('lists every entry once, groups first', () => {
    expect(allowlistOptions([project], [group, project])).toEqual([group, project]);
  });

  it('answers the picked entries as the API takes them', () => {
    expect(pickedEntries([group, project], [entryKey(project)])).toEqual([
      { entryType: 'project', remoteId: '1001', fullPath: 'platform/service-1' },
    ]);
  });
});
