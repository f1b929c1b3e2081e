import { beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_AREAS, type ResourceArea } from '../../src/core/auth/scopes.js';
import { expectError } from './expectations.js';
import type { TestGateway } from './gateway.js';

export interface BoundaryScopeSpec {
  area: ResourceArea;
  /** Makes one resource as the admin and answers its id. */
  create: () => Promise<string>;
  /** The resource's own path: PATCH changes it, GET reads it. */
  path: (id: string) => string;
  /** A change that moves where the resource reaches, and the fields it moves. */
  move: { body: Record<string, unknown>; fields: string[] };
  /** A change that renames or tunes the resource and moves nothing. */
  rename: Record<string, unknown>;
}

/**
 * The delegation rule of src/core/trust-boundary.ts for one area (docs/api/auth-and-users.md): a
 * caller whose `manage` names one resource may rename and tune it but not move its boundary (403
 * `BOUNDARY_CHANGE_NEEDS_AREA_SCOPE`, the resource unchanged); the area-wide `manage` may.
 */
export function describeBoundaryScope(gateway: () => TestGateway, spec: BoundaryScopeSpec): void {
  const kind = RESOURCE_AREAS[spec.area];
  const manage = `${spec.area}:manage`;
  const fixture = {} as { id: string; token: string };
  const fieldsOf = async (id: string) => {
    const { body } = await gateway().call('GET', spec.path(id));
    return Object.fromEntries(spec.move.fields.map((field) => [field, body.data[field]]));
  };

  describe(`moving one ${kind} (${spec.move.fields.join(', ')})`, () => {
    beforeAll(async () => {
      fixture.id = await spec.create();
      fixture.token = await gateway().tokenWithScopes([`${manage}:${fixture.id}`]);
    });

    it(`is refused to a caller with ${manage}:<id> with 403 naming the fields and the area-wide scope`, async () => {
      const before = await fieldsOf(fixture.id);
      const result = await gateway().call('PATCH', spec.path(fixture.id), {
        token: fixture.token,
        body: spec.move.body,
      });
      expectError(result, 403, 'FORBIDDEN');
      expect(result.body.details).toMatchObject({
        reason: 'BOUNDARY_CHANGE_NEEDS_AREA_SCOPE',
        requiredScope: manage,
        fields: spec.move.fields,
      });
      expect(await fieldsOf(fixture.id)).toEqual(before);
    });

    it(`is not needed to rename it: ${manage}:<id> may`, async () => {
      const result = await gateway().call('PATCH', spec.path(fixture.id), {
        token: fixture.token,
        body: spec.rename,
      });
      expect(result.status, result.text).toBe(200);
    });

    it(`is allowed with the area-wide ${manage}`, async () => {
      const token = await gateway().tokenWithScopes([manage]);
      const result = await gateway().call('PATCH', spec.path(fixture.id), { token, body: spec.move.body });
      expect(result.status, result.text).toBe(200);
    });
  });
}
