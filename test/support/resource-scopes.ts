import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_AREAS, type ResourceArea } from '../../src/core/auth/scopes.js';
import type { TestGateway } from './gateway.js';

export interface ResourceScopeSpec {
  area: ResourceArea;
  /** The list of the area's resources. */
  list: string;
  /** Where a resource is created (`POST`), when not the list itself. */
  createAt?: string;
  /** A read of one resource that answers 200 to a caller allowed to see it. */
  read: (id: string) => string;
  /** Makes one resource as the admin and answers its id. */
  create: () => Promise<string>;
}

/**
 * The behaviour every area with resource scopes shares (docs/api/auth-and-users.md): a scope naming
 * one resource reaches that one, another resource answers 404 as if it did not exist, the list holds
 * only the granted ones with a matching total, area-wide scopes still reach everything, and creating
 * a resource needs an area-wide scope.
 */
export function describeResourceScopes(gateway: () => TestGateway, spec: ResourceScopeSpec): void {
  const kind = RESOURCE_AREAS[spec.area];
  const view = `${spec.area}:view`;
  const fixture = {} as { granted: string; other: string; token: string };

  describe(`resource scopes of ${spec.area} (one ${kind})`, () => {
    beforeAll(async () => {
      fixture.granted = await spec.create();
      fixture.other = await spec.create();
      fixture.token = await gateway().tokenWithScopes([`${view}:${fixture.granted}`]);
    });

    it(`a caller with ${view}:<id> reads that ${kind}`, async () => {
      const result = await gateway().call('GET', spec.read(fixture.granted), { token: fixture.token });
      expect(result.status, result.text).toBe(200);
    });

    it(`another ${kind} answers that caller 404, the same answer as one that does not exist`, async () => {
      const other = await gateway().call('GET', spec.read(fixture.other), { token: fixture.token });
      const unknown = await gateway().call('GET', spec.read(crypto.randomUUID()), { token: fixture.token });
      expect(other.status).toBe(404);
      expect(other.body).toEqual(unknown.body);
    });

    it(`the list holds only the granted ${kind}, with a matching total`, async () => {
      const result = await gateway().call('GET', spec.list, { token: fixture.token });
      expect(result.status, result.text).toBe(200);
      expect(result.body.data.map((item: { id: string }) => item.id)).toEqual([fixture.granted]);
      expect(result.body.pagination).toMatchObject({ total: 1, totalPages: 1 });
    });

    it(`the area-wide ${view} still reads every ${kind} and lists them all`, async () => {
      const token = await gateway().tokenWithScopes([view]);
      const all = await gateway().call('GET', spec.list, { query: { limit: 100 } });
      const listed = await gateway().call('GET', spec.list, { token, query: { limit: 100 } });
      expect(listed.body.pagination.total).toBe(all.body.pagination.total);
      expect(listed.body.data.map((item: { id: string }) => item.id)).toEqual(
        expect.arrayContaining([fixture.granted, fixture.other]),
      );
      expect((await gateway().call('GET', spec.read(fixture.other), { token })).status).toBe(200);
    });

    it(`creating a ${kind} needs the area-wide ${spec.area}:manage`, async () => {
      const token = await gateway().tokenWithScopes([`${spec.area}:manage:${fixture.granted}`]);
      const result = await gateway().call('POST', spec.createAt ?? spec.list, { token, body: {} });
      expect(result.status).toBe(403);
      expect(result.body.details).toEqual({ requiredScope: `${spec.area}:manage` });
    });
  });
}
