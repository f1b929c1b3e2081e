import { describe, expect, it } from 'vitest';
import { forgetUpload, mismatch, rememberedUpload, rememberUpload, type UploadStore } from './upload-memory';

function memoryStore(initial?: string): UploadStore {
  const items = new Map<string, string>(
    initial === undefined ? [] : [['infragate.resumable-uploads', initial]],
  );
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

const file = { name: 'disk.img', size: 300, lastModified: 1_700_000_000_000 };
const entry = { uploadId: 'u1', nodeId: 'n1', path: 'images/disk.img', file };

describe('the uploads a browser remembers', () => {
  it('finds an upload it remembered, and not after forgetting it', () => {
    const store = memoryStore();
    rememberUpload(store, entry);
    expect(rememberedUpload(store, 'u1')).toEqual(entry);
    forgetUpload(store, 'u1');
    expect(rememberedUpload(store, 'u1')).toBeUndefined();
  });

  it('keeps one entry per upload', () => {
    const store = memoryStore();
    rememberUpload(store, entry);
    rememberUpload(store, { ...entry, path: 'moved.img' });
    expect(rememberedUpload(store, 'u1')?.path).toBe('moved.img');
  });

  it('starts over when the stored value is not its own', () => {
    expect(rememberedUpload(memoryStore('{not json'), 'u1')).toBeUndefined();
    expect(rememberedUpload(memoryStore('[{"uploadId": 1}]'), 'u1')).toBeUndefined();
  });
});

describe('picking the file to continue an upload with', () => {
  it('accepts the same file', () => {
    expect(mismatch(file, { totalBytes: 300 }, entry)).toBeUndefined();
  });

  it('refuses a file of another size', () => {
    expect(mismatch({ ...file, size: 299 }, { totalBytes: 300 }, entry)).toContain('300 bytes');
  });

  it('refuses a file changed since the upload started', () => {
    expect(mismatch({ ...file, lastModified: 1 }, { totalBytes: 300 }, entry)).toContain('disk.img');
  });

  it('accepts a file of the right size when this browser did not start the upload', () => {
    expect(mismatch(file, { totalBytes: 300 }, undefined)).toBeUndefined();
  });
});
