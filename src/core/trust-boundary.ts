import { type TSchema, Type } from 'typebox';
import type { Actor, AuditActor } from './actor.js';
import { hasScope, type RequiredScope } from './auth/scopes.js';
import { forbidden } from './errors.js';

/**
 * The delegation rule of every record that reaches somewhere (docs/SECURITY.md, "Delegation"):
 * - a field that decides *where* a resource reaches (a node root, an engine endpoint, a database
 *   URL, a base URL, a destination URL, an issuer, a DNS server, a registry) is its boundary. A
 *   resource-scoped grant may rename and tune the resource; moving its boundary needs the
 *   area-wide scope (`requireAreaScopeToMove`);
 * - a stored secret is sent only where it was sent when it was stored: a change of destination
 *   drops it unless the same request supplies it again (`secretsToDrop`), and the answer says so
 *   (`droppedSecrets`).
 */

/** A caller acting through a request carries its scopes; the gateway itself (CLI, jobs) does not. */
const requestActor = (actor: Actor | AuditActor): actor is Actor => 'scopes' in actor;

/**
 * Whether the caller holds `required` (on the one resource named, or area-wide): a caller acting
 * through a request by its scopes; the gateway itself (CLI, jobs) always. For a resource of another
 * area a record uses, such as the certificate a pages domain is served with.
 */
export function actorHolds(actor: Actor | AuditActor, required: RequiredScope, resourceId?: string): boolean {
  return !requestActor(actor) || hasScope(actor.scopes, required, resourceId);
}

/**
 * Refuses (403, naming the fields and the scope) a change of `fields` by a caller whose grant of
 * `areaScope` names resources rather than the whole area. `fields` are those the request changes
 * (given but equal to the stored value counts as no change); none: nothing to check.
 */
export function requireAreaScopeToMove(
  actor: Actor | AuditActor,
  areaScope: RequiredScope,
  fields: readonly string[],
): void {
  if (fields.length === 0 || actorHolds(actor, areaScope)) return;
  throw forbidden({
    reason: 'BOUNDARY_CHANGE_NEEDS_AREA_SCOPE',
    requiredScope: areaScope,
    fields,
    explanation: `changing ${fields.join(', ')} moves where this resource reaches: it needs ${areaScope} on the whole area, not on one resource`,
  });
}

/** The names of the fields whose new value (given) differs from the stored one. */
export function changedFields<T extends Record<string, unknown>>(
  stored: T,
  given: Partial<T>,
  fields: readonly (keyof T & string)[],
): string[] {
  return fields.filter((field) => given[field] !== undefined && !sameValue(given[field], stored[field]));
}

const sameValue = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b));

const DEFAULT_PORTS: Record<string, string> = {
  'http:': '80',
  'https:': '443',
  'ws:': '80',
  'wss:': '443',
  'redis:': '6379',
  'rediss:': '6379',
};

/**
 * Where a URL sends what is given to it: scheme, host (lower case, no trailing dot), port (the
 * scheme's default made explicit) and path (no trailing slash). Query and fragment do not move a
 * destination; user info is dropped (it is a credential, not a place). A string that is not a URL
 * (a `host:port`, a socket path) is its own destination, compared as written.
 */
export function destinationOf(target: string): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return target.trim().toLowerCase();
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  const path = decodeURIComponent(url.pathname).replace(/\/+$/, '');
  return `${url.protocol}//${host}${port ? `:${port}` : ''}${path}`;
}

/** Whether a change from `before` to `after` moves where a secret would be sent. */
export function destinationMoved(
  before: string | null | undefined,
  after: string | null | undefined,
): boolean {
  if (after === undefined) return false;
  if (before === null || before === undefined || after === null) return before !== after;
  return destinationOf(before) !== destinationOf(after);
}

/**
 * The names of the destination fields whose new value (given) sends elsewhere than the stored one
 * (`destinationMoved`): the fields a change moves, for `requireAreaScopeToMove` and `secretsToDrop`
 * alike. A new spelling of the same place (`redis://h` for `redis://h:6379`) moves nothing.
 */
export function movedDestinations<T extends Record<string, unknown>>(
  stored: T,
  given: { [K in keyof T]?: string | null },
  fields: readonly (keyof T & string)[],
): string[] {
  return fields.filter((field) =>
    destinationMoved(stored[field] as string | null | undefined, given[field] as string | null | undefined),
  );
}

/** One write-only secret of a record: whether one is stored, and whether this request supplies it. */
export interface StoredSecret {
  stored: boolean;
  supplied: boolean;
}

/**
 * The stored secrets a change must drop: when the destination moved, every stored secret the
 * request does not supply again. Names are the request's field names (`password`, `token`…).
 */
export function secretsToDrop(moved: boolean, secrets: Record<string, StoredSecret>): string[] {
  if (!moved) return [];
  return Object.entries(secrets)
    .filter(([, secret]) => secret.stored && !secret.supplied)
    .map(([name]) => name);
}

/**
 * The answer of a PATCH/PUT of a record holding a secret: the record, and beside it the secrets the
 * change dropped (absent when none was).
 */
export const DataWithDroppedSecrets = <T extends TSchema>(item: T) =>
  Type.Object({
    data: item,
    droppedSecrets: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'write-only secrets removed by this change: the destination they were sent to changed and the request did not supply them again',
      }),
    ),
  });

/** `{droppedSecrets}` when the change dropped any, else nothing: spread into an answer or audit metadata. */
export const droppedSecretsNote = (dropped: readonly string[]): { droppedSecrets?: string[] } =>
  dropped.length > 0 ? { droppedSecrets: [...dropped] } : {};

/** `{data, droppedSecrets?}` as a service hands it to its route. */
export const withDroppedSecrets = <T>(data: T, dropped: readonly string[]) => ({
  data,
  ...droppedSecretsNote(dropped),
});
