import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configProblems as problems } from '../unit-support/config-problems.js';

describe('HTTPS and ACME configuration', () => {
  it("starts no TLS listener and orders from Let's Encrypt by default", () => {
    const config = loadConfig({});
    expect(config.https).toEqual({ port: undefined, defaultCertificate: undefined, redirect: false });
    expect(config.acme.directoryUrl).toBe('https://acme-v02.api.letsencrypt.org/directory');
    expect(config.acme.renewBeforeDays).toBe(30);
  });

  it('reads the HTTPS port, the default certificate and the redirect', () => {
    const config = loadConfig({
      HTTPS_PORT: '8443',
      INFRAGATE_TLS_DEFAULT_CERTIFICATE: 'gateway',
      INFRAGATE_HTTPS_REDIRECT: 'true',
    });
    expect(config.https).toEqual({ port: 8443, defaultCertificate: 'gateway', redirect: true });
  });

  it('reports every bad value at once, in the order of the configuration table', () => {
    expect(
      problems({
        HTTPS_PORT: 'x',
        INFRAGATE_ACME_DIRECTORY_URL: 'http://ca.example/directory',
        INFRAGATE_ACME_CA_FILE: '/nonexistent/ca.pem',
      }),
    ).toEqual([
      'HTTPS_PORT=x is invalid: expected an integer from 0 to 65535',
      'INFRAGATE_ACME_DIRECTORY_URL=http://ca.example/directory is invalid: expected an https:// URL',
      'INFRAGATE_ACME_CA_FILE=/nonexistent/ca.pem is invalid: no such file',
    ]);
  });

  it('refuses the redirect without an HTTPS port', () => {
    expect(problems({ INFRAGATE_HTTPS_REDIRECT: 'true' })).toEqual([
      'INFRAGATE_HTTPS_REDIRECT=true is invalid without HTTPS_PORT',
    ]);
  });

  it('reports only the refused HTTPS port when the redirect needs it', () => {
    expect(problems({ INFRAGATE_HTTPS_REDIRECT: 'true', HTTPS_PORT: 'x' })).toEqual([
      'HTTPS_PORT=x is invalid: expected an integer from 0 to 65535',
    ]);
  });
});
