import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('pages configuration', () => {
  it('has defaults: keep 10 unpinned deployments, 100 MiB archives, 500 MiB sites, 20000 files, sandboxed, no base domain', () => {
    expect(loadConfig({}).pages).toEqual({
      retainDeployments: 10,
      maxArchiveBytes: 100 * 1024 * 1024,
      maxSiteBytes: 500 * 1024 * 1024,
      maxFiles: 20_000,
      sandbox: true,
      baseDomain: undefined,
      urlScheme: 'https',
      dnsServers: [],
      verifyHttpPort: 80,
      acmeEmail: undefined,
    });
  });

  it('reads INFRAGATE_PAGES_* variables', () => {
    const pages = loadConfig({
      INFRAGATE_PAGES_RETAIN_DEPLOYMENTS: '3',
      INFRAGATE_PAGES_MAX_ARCHIVE_BYTES: '2048',
      INFRAGATE_PAGES_MAX_SITE_BYTES: '4096',
      INFRAGATE_PAGES_MAX_FILES: '7',
      INFRAGATE_PAGES_SANDBOX: 'false',
      INFRAGATE_PAGES_BASE_DOMAIN: 'Pages.Example.COM',
      INFRAGATE_PAGES_URL_SCHEME: 'http',
      INFRAGATE_PAGES_DNS_SERVERS: '10.0.0.53, 127.0.0.1:5353,[::1]:53,::1',
      INFRAGATE_PAGES_VERIFY_HTTP_PORT: '8080',
      INFRAGATE_PAGES_ACME_EMAIL: 'Ops@Example.COM',
    }).pages;
    expect(pages).toEqual({
      retainDeployments: 3,
      maxArchiveBytes: 2048,
      maxSiteBytes: 4096,
      maxFiles: 7,
      sandbox: false,
      baseDomain: 'pages.example.com',
      urlScheme: 'http',
      dnsServers: ['10.0.0.53', '127.0.0.1:5353', '[::1]:53', '::1'],
      verifyHttpPort: 8080,
      acmeEmail: 'ops@example.com',
    });
  });

  it.each([
    ['INFRAGATE_PAGES_BASE_DOMAIN', 'localhost'],
    ['INFRAGATE_PAGES_BASE_DOMAIN', '*.example.com'],
    ['INFRAGATE_PAGES_BASE_DOMAIN', '10.0.0.1'],
    ['INFRAGATE_PAGES_URL_SCHEME', 'ftp'],
    ['INFRAGATE_PAGES_DNS_SERVERS', 'dns.example.com'],
    ['INFRAGATE_PAGES_DNS_SERVERS', '10.0.0.53:99999'],
    ['INFRAGATE_PAGES_VERIFY_HTTP_PORT', '0'],
    ['INFRAGATE_PAGES_ACME_EMAIL', 'ops@localhost'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}=.* is invalid`));
  });

  it('reports every bad value at once', () => {
    try {
      loadConfig({ INFRAGATE_PAGES_RETAIN_DEPLOYMENTS: '0', INFRAGATE_PAGES_MAX_FILES: 'many' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/INFRAGATE_PAGES_RETAIN_DEPLOYMENTS=0 is invalid/);
      expect(problems).toMatch(/INFRAGATE_PAGES_MAX_FILES=many is invalid/);
    }
  });
});
