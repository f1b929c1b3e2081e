import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCli, gatewayWithCli } from '../support/cli.js';
import type { TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let cli: ApiCli;
beforeAll(async () => {
  ({ gateway, cli } = await gatewayWithCli());
  for (const slug of ['alpha', 'beta', 'gamma'])
    await gateway.call('POST', '/api/pages', { body: { name: `Project ${slug}`, slug } });
});
afterAll(() => gateway.close());

const lines = (text: string) => text.replace(/\r/g, '').trim().split('\n');

describe('output: tables at a terminal, JSON for scripts', () => {
  it('prints an aligned table at a terminal', async () => {
    const shown = await cli.terminal(['pages', 'ls']);
    expect(shown.code).toBe(0);
    const [header, ...rows] = lines(shown.stdout);
    expect(header).toMatch(/^SLUG\s+NAME\s+DEPLOYMENT COUNT\s+PRODUCTION DEPLOYMENT ID\s+ID$/);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(['alpha', 'beta', 'gamma']);
    // Aligned: every row's second column starts where the header's does.
    const nameColumn = header!.indexOf('NAME');
    for (const row of rows) expect(row.slice(nameColumn, nameColumn + 7)).toBe('Project');
  });

  it('prints JSON with --json, also at a terminal', async () => {
    const shown = await cli.terminal(['pages', 'ls', '--json']);
    expect(JSON.parse(shown.stdout).map((row: { slug: string }) => row.slug)).toEqual([
      'alpha',
      'beta',
      'gamma',
    ]);
  });

  it('prints JSON when stdout is not a terminal', async () => {
    const piped = await cli.run(['pages', 'ls']);
    expect(JSON.parse(piped.stdout)).toHaveLength(3);
  });

  it('shows one record as key and value lines at a terminal', async () => {
    const shown = await cli.terminal(['pages', 'get', 'beta']);
    expect(lines(shown.stdout)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^slug\s+beta$/),
        expect.stringMatching(/^name\s+Project beta$/),
      ]),
    );
  });

  it('says where more pages are, and --all-pages reads them all', async () => {
    const shown = await cli.terminal(['pages', 'ls', '--limit', '2']);
    expect(shown.stdout).toContain('page 1 of 2 (3 in all)');
    const all = await cli.json(['pages', 'ls', '--limit', '2', '--all-pages']);
    expect(all).toHaveLength(3);
    const second = await cli.json(['pages', 'ls', '--limit', '2', '--page', '2']);
    expect(second.map((row: { slug: string }) => row.slug)).toEqual(['gamma']);
  });
});
