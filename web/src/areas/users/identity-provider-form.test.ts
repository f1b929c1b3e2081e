import { describe, expect, it } from 'vitest';
import {
  formValuesOf,
  type IdentityProvider,
  NEW_PROVIDER,
  newProviderBody,
  providerChangeBody,
} from './identity-provider-form';

const stored: IdentityProvider = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Corporate SSO',
  issuer: 'https://id.example.com',
  clientId: 'gateway',
  scopes: ['openid', 'email', 'groups'],
  groupsClaim: 'groups',
  groupMap: { engineers: 'operators' },
  autoCreateUsers: true,
  defaultGroup: 'viewers',
  allowedEmailDomains: ['example.com'],
  enabled: true,
  hasClientSecret: true,
  redirectUri: 'https://gateway.example.com/auth/oidc/callback',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const filled = {
  ...NEW_PROVIDER,
  name: 'Corporate SSO',
  issuer: ' https://id.example.com ',
  clientId: 'gateway',
  clientSecret: 'the secret',
};

describe('the identity provider form', () => {
  it('sends a new provider without the optional fields left empty, so the defaults apply', () => {
    expect(newProviderBody({ ...filled, scopes: [] })).toEqual({
      name: 'Corporate SSO',
      issuer: 'https://id.example.com',
      clientId: 'gateway',
      clientSecret: 'the secret',
      groupMap: {},
      autoCreateUsers: false,
      allowedEmailDomains: [],
      enabled: true,
    });
  });

  it('sends the group mapping as an object, without lines left empty', () => {
    const body = newProviderBody({
      ...filled,
      groupMap: [
        { providerGroup: ' engineers ', group: 'operators' },
        { providerGroup: '', group: '' },
      ],
    });
    expect(body.groupMap).toEqual({ engineers: 'operators' });
  });

  it('keeps a half-filled mapping line, so the gateway can say what is missing', () => {
    expect(
      newProviderBody({ ...filled, groupMap: [{ providerGroup: '', group: 'operators' }] }).groupMap,
    ).toEqual({ '': 'operators' });
  });

  it('shows a stored provider with an empty secret, and sends it back unchanged without one', () => {
    const values = formValuesOf(stored);
    expect(values.clientSecret).toBe('');
    expect(values.groupMap).toEqual([{ providerGroup: 'engineers', group: 'operators' }]);
    expect(providerChangeBody(values)).toEqual({
      name: 'Corporate SSO',
      issuer: 'https://id.example.com',
      clientId: 'gateway',
      scopes: ['openid', 'email', 'groups'],
      groupsClaim: 'groups',
      groupMap: { engineers: 'operators' },
      autoCreateUsers: true,
      defaultGroup: 'viewers',
      allowedEmailDomains: ['example.com'],
      enabled: true,
    });
  });

  it('replaces the secret only when one is typed, and clears an emptied claim and default group', () => {
    const change = providerChangeBody({
      ...formValuesOf(stored),
      clientSecret: 'new secret',
      groupsClaim: ' ',
      defaultGroup: null,
    });
    expect(change).toMatchObject({ clientSecret: 'new secret', groupsClaim: null, defaultGroup: null });
  });
});
