import { describe, expect, it } from 'vitest';
import { formatBytes } from './format';

describe('a size for people', () => {
  it('counts small sizes in bytes', () => {
    expect([formatBytes(0), formatBytes(1), formatBytes(1023)]).toEqual(['0 bytes', '1 byte', '1023 bytes']);
  });

  it('uses the largest unit that keeps the number at least 1, with one decimal', () => {
    expect([formatBytes(1024), formatBytes(1536 * 1024), formatBytes(5 * 1024 ** 3)]).toEqual([
      '1.0 KB',
      '1.5 MB',
      '5.0 GB',
    ]);
  });
});
