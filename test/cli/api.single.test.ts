import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCli, gatewayWithCli } from '../support/cli.js';
import type { TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let cli: ApiCli;
beforeAll(async () => {
  ({ gateway, cli } = await gatewayWithCli());
});
afterAll(() => gateway.close());

const api = (args: string[], stdin?: string) => cli.run(['api', ...args], stdin);

describe('infragate api', () => {
  it('GET prints the JSON answer and exits 0', async () => {
    const result = await api(['GET', '/auth/me']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).data.email).toBe('admin@test');
  });

  it('GET sends -f fields as the query string', async () => {
    await gateway.call('POST', '/api/pages', { body: { name: 'Alpha', slug: 'alpha' } });
    await gateway.call('POST', '/api/pages', { body: { name: 'Beta', slug: 'beta' } });
    const result = await api(['get', 'api/pages', '-f', 'q=alp']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).data.map((project: { slug: string }) => project.slug)).toEqual([
      'alpha',
    ]);
  });

  it('POST sends -f as strings and -F typed (booleans, numbers) in a JSON body', async () => {
    const result = await api([
      'POST',
      '/api/pages',
      '-f',
      'name=Docs',
      '-f',
      'slug=docs',
      '-F',
      'spaFallback=true',
    ]);
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout).data;
    expect(created).toMatchObject({ name: 'Docs', slug: 'docs', spaFallback: true });
    expect((await gateway.call('GET', `/api/pages/${created.id}`)).body.data.spaFallback).toBe(true);
  });

  it('builds arrays from key[]=value, and an empty one from key[]', async () => {
    const filled = await api([
      'POST',
      '/api/admin/groups',
      '-f',
      'name=readers',
      '-f',
      'scopes[]=pages:view',
      '-f',
      'scopes[]=logging:view',
    ]);
    expect(JSON.parse(filled.stdout).data.scopes).toEqual(['pages:view', 'logging:view']);
    const empty = await api(['POST', '/api/admin/groups', '-f', 'name=nobody', '-f', 'scopes[]']);
    expect(JSON.parse(empty.stdout).data.scopes).toEqual([]);
  });

  it('-F key=@file sends the text of a file', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-api-')), 'description.txt');
    fs.writeFileSync(file, 'from a file');
    const result = await api([
      'POST',
      '/api/logging/schemas',
      '-f',
      'name=from-file',
      '-F',
      `description=@${file}`,
      '-f',
      'fields[]',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).data.description).toBe('from a file');
  });

  it('--input - sends standard input as the body, and -q adds query parameters', async () => {
    const folder = (await gateway.call('POST', '/api/logging/schema-folders', { body: { name: 'outer' } }))
      .body.data;
    await gateway.call('POST', '/api/logging/schema-folders', {
      body: { name: 'inner', parentId: folder.id },
    });
    const renamed = await api(
      ['PUT', `/api/logging/schema-folders/${folder.id}`, '--input', '-'],
      '{"name":"renamed"}',
    );
    expect(JSON.parse(renamed.stdout).data.name).toBe('renamed');
    const refused = await api(['DELETE', `/api/logging/schema-folders/${folder.id}`]);
    expect(refused.code).toBe(1);
    const deleted = await api(['DELETE', `/api/logging/schema-folders/${folder.id}`, '-q', 'recursive=true']);
    expect(deleted.code).toBe(0);
    expect((await gateway.call('GET', `/api/logging/schema-folders/${folder.id}`)).status).toBe(404);
  });

  it('a validation error exits 1 with the message and field errors on one stderr line, the envelope on stdout', async () => {
    const result = await api(['POST', '/api/pages', '-f', 'name=Bad', '-f', 'slug=Not A Slug']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^infragate: 400 VALIDATION_ERROR Request validation failed: slug /);
    expect(JSON.parse(result.stdout)).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: ['slug'] }],
    });
  });

  it('a conflict exits 1 with the reason and its details', async () => {
    await api(['POST', '/api/pages', '-f', 'name=Twice', '-f', 'slug=twice']);
    const result = await api(['POST', '/api/pages', '-f', 'name=Twice', '-f', 'slug=twice']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'infragate: 409 CONFLICT Resource already exists: SLUG_TAKEN (slug=twice)',
    );
  });

  it('an unknown path exits 1 with 404', async () => {
    const result = await api(['GET', '/api/nothing-here']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^infragate: 404 NOT_FOUND/);
  });

  it('refuses a method that is not HTTP', async () => {
    const result = await api(['FETCH', '/auth/me']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'infragate: method FETCH is not one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    );
  });
});
