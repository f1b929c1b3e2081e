import { describe, expect, it } from 'vitest';
import { acmeBadge, expiryBadge } from './certificate-status';

describe('the expiry badge of a certificate', () => {
  it('says an expired certificate expired', () => {
    expect(expiryBadge({ expired: true, expiresInDays: -3 })).toEqual({ label: 'Expired', color: 'red' });
  });

  it('warns within 30 days, counting the days', () => {
    expect(expiryBadge({ expired: false, expiresInDays: 30 })).toEqual({
      label: 'Expires in 30 days',
      color: 'orange',
    });
    expect(expiryBadge({ expired: false, expiresInDays: 1 }).label).toBe('Expires in 1 day');
  });

  it('is fine beyond 30 days', () => {
    expect(expiryBadge({ expired: false, expiresInDays: 31 })).toEqual({
      label: 'Valid for 31 days',
      color: 'green',
    });
  });

  it('has nothing to say before an ACME certificate is issued', () => {
    expect(expiryBadge({ expired: null, expiresInDays: null }).label).toBe('Not issued yet');
  });
});

describe('the ACME badge of a certificate', () => {
  const acme = (status: 'pending' | 'valid' | 'renewing' | 'failed', extra = {}) => ({
    source: 'acme' as const,
    status,
    lastError: null,
    acme: null,
    ...extra,
  });

  it('is absent for an uploaded certificate', () => {
    expect(acmeBadge({ ...acme('valid'), source: 'uploaded' })).toBeUndefined();
  });

  it('tells ordering from waiting for the manual DNS records', () => {
    expect(acmeBadge(acme('pending'))?.label).toBe('Ordering');
    const waiting = acme('pending', {
      acme: {
        domains: ['a.example.com'],
        challenge: 'dns-01' as const,
        accountEmail: 'ops@example.com',
        directoryUrl: 'https://ca.example/dir',
        dnsProviderId: null,
        dnsRecords: [],
        awaitingConfirmation: true,
      },
    });
    expect(acmeBadge(waiting)?.label).toBe('Waiting for DNS records');
  });

  it('tells a renewal under way from one that keeps failing', () => {
    expect(acmeBadge(acme('renewing'))?.label).toBe('Renewing');
    expect(acmeBadge(acme('renewing', { lastError: 'connection refused' }))?.label).toBe('Renewal failing');
  });

  it('says failed and issued', () => {
    expect([acmeBadge(acme('failed'))?.label, acmeBadge(acme('valid'))?.label]).toEqual(['Failed', 'Issued']);
  });
});
