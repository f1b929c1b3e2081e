import { describe, expect, it } from 'vitest';
import {
  canonicalHostname,
  certificateNameCovers,
  hostOfHeader,
  isBelow,
  isHostname,
} from '../../src/core/hostnames.js';

describe('host names', () => {
  it.each([
    'example.com',
    'a.b.example.com',
    'xn--bcher-kva.example',
    'a-1.example.co',
    `${'a'.repeat(63)}.example`,
  ])('accepts %s', (name) => expect(isHostname(name)).toBe(true));

  it.each([
    'localhost',
    'Example.com',
    '10.0.0.1',
    'example.123',
    '*.example.com',
    '-a.example.com',
    'a-.example.com',
    'a..example.com',
    'example.com.',
    `${'a'.repeat(64)}.example`,
    `${'a.'.repeat(127)}com`,
  ])('refuses %s', (name) => expect(isHostname(name)).toBe(false));

  it('reads a Host header without case, port or final dot', () => {
    expect(hostOfHeader('Docs.Example.COM.:8443')).toBe('docs.example.com');
    expect(hostOfHeader('127.0.0.1:8080')).toBeUndefined();
    expect(hostOfHeader('[::1]:8080')).toBeUndefined();
    expect(hostOfHeader(undefined)).toBeUndefined();
  });

  it.each([
    ['Docs.Example.COM', 'docs.example.com'],
    ['docs.example.com.', 'docs.example.com'],
    ['Bücher.Example.', 'xn--bcher-kva.example'],
    ['XN--BCHER-KVA.example', 'xn--bcher-kva.example'],
    ['docs。example。com', 'docs.example.com'],
  ])('spells %s canonically as %s', (name, canonical) => expect(canonicalHostname(name)).toBe(canonical));

  it.each(['10.0.0.1', '[::1]', 'localhost', 'docs example.com', ''])('finds no host name in %j', (name) =>
    expect(canonicalHostname(name)).toBeUndefined(),
  );

  it('reads an internationalised Host header in its xn-- form', () => {
    expect(hostOfHeader('Bücher.Example:8080')).toBe('xn--bcher-kva.example');
  });

  it('knows which names are below a domain', () => {
    expect(isBelow('a.b.example.com', 'example.com')).toBe(true);
    expect(isBelow('example.com', 'example.com')).toBe(false);
    expect(isBelow('badexample.com', 'example.com')).toBe(false);
  });

  it('matches certificate names exactly or by a one-label wildcard', () => {
    expect(certificateNameCovers('docs.example.com', 'docs.example.com')).toBe(true);
    expect(certificateNameCovers('DOCS.example.com', 'docs.example.com')).toBe(true);
    expect(certificateNameCovers('*.example.com', 'docs.example.com')).toBe(true);
    expect(certificateNameCovers('*.example.com', 'a.docs.example.com')).toBe(false);
    expect(certificateNameCovers('*.example.com', 'example.com')).toBe(false);
    expect(certificateNameCovers('10.0.0.1', 'docs.example.com')).toBe(false);
  });
});
