import { describe, expect, it } from 'vitest';
import { percentSent, uploadUrl } from './upload';

describe('the address of an upload', () => {
  it('fills the path placeholders, encoded', () => {
    expect(uploadUrl('/api/nodes/{id}/files/uploads/{uploadId}/chunks', { id: 'a b', uploadId: 'c/d' })).toBe(
      '/api/nodes/a%20b/files/uploads/c%2Fd/chunks',
    );
  });

  it('adds the query, leaving out what is unset', () => {
    expect(
      uploadUrl(
        '/api/pages/{projectId}/deployments',
        { projectId: 'p' },
        { promote: false, stripComponents: 1, x: undefined },
      ),
    ).toBe('/api/pages/p/deployments?promote=false&stripComponents=1');
  });

  it('refuses a template whose placeholder has no value', () => {
    expect(() => uploadUrl('/api/pages/{projectId}/deployments')).toThrow('No value for {projectId}');
  });
});

describe('how much of an upload is sent', () => {
  it('is a whole percent, rounded down until every byte went out', () => {
    expect([percentSent({ loaded: 0, total: 3 }), percentSent({ loaded: 2, total: 3 })]).toEqual([0, 66]);
    expect(percentSent({ loaded: 3, total: 3 })).toBe(100);
  });

  it('is complete for an empty body', () => {
    expect(percentSent({ loaded: 0, total: 0 })).toBe(100);
  });
});
