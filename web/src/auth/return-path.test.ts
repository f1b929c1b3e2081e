import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInPath } from './return-path';

describe('where sign-in returns to', () => {
  it('the page the user was on, with its query', () => {
    expect(safeReturnPath('/users/groups?page=2')).toBe('/users/groups?page=2');
  });

  it('the start page when none was named', () => {
    expect(safeReturnPath(null)).toBe('/');
  });

  it('never another site', () => {
    for (const elsewhere of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      expect(safeReturnPath(elsewhere)).toBe('/');
    }
  });
});

describe('the way to sign-in', () => {
  it('carries the page to return to and why', () => {
    expect(signInPath('/users?q=ops', 'expired')).toBe('/signin?next=%2Fusers%3Fq%3Dops&reason=expired');
  });

  it('is plain from the start page', () => {
    expect(signInPath('/')).toBe('/signin');
  });
});
