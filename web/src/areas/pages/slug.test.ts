import { describe, expect, it } from 'vitest';
import { slugFrom } from './slug';

describe('the slug suggested from a project name', () => {
  it('is lowercase with hyphens between words', () => {
    expect(slugFrom('My Docs Site')).toBe('my-docs-site');
  });

  it('drops accents and everything that is not a letter or digit', () => {
    expect(slugFrom('  Café & Bar — 2026!  ')).toBe('cafe-bar-2026');
  });

  it('is at most 63 characters and never ends with a hyphen', () => {
    const slug = slugFrom(`${'a'.repeat(62)} b`);
    expect(slug).toBe('a'.repeat(62));
  });

  it('is empty for a name with no letter or digit', () => {
    expect(slugFrom('!!!')).toBe('');
  });
});
