import type { AnswerOf, BodyOf, OperationAt, PathParamsOf, QueryOf } from '../core/openapi/api-operations.js';
import type { Route, Verb } from './api-client.js';
import type { ApiContext } from './api-command.js';
import type { FieldPath } from './field-paths.js';
import type { Flag } from './flags.js';

/**
 * A resource of the API as the shared verbs of resource.ts see it, typed from the API document: its
 * collection's route, the placeholder of one record, and the fields its lists, filters and bodies
 * name. Declaring one (`resource({...})`) checks each against the operations it will call.
 */

/** A collection of the API: a route a list is read from. */
export type ListRoute = Route<'GET'>;

type Operation<Path, M extends Verb> = OperationAt<Path, Lowercase<M>>;
type ListAnswer<List> = AnswerOf<Operation<List, 'GET'>>;

/** One record of a list's answer: an item of its `data`, or of the bare array it answers. */
export type ListItem<List> =
  ListAnswer<List> extends { data: readonly (infer Item)[] }
    ? Item
    : ListAnswer<List> extends readonly (infer Item)[]
      ? Item
      : never;

/** The body fields of an operation as flags name them (`name`, `tls.caPem`). */
export type BodyField<Path, M extends Verb> = FieldPath<BodyOf<Operation<Path, M>>>;

/** The query parameters of an operation (of each one, for several routes). */
export type QueryField<Path, M extends Verb> = Path extends unknown
  ? [QueryOf<Operation<Path, M>>] extends [never]
    ? never
    : keyof QueryOf<Operation<Path, M>> & string
  : never;

/** One record's route: `/api/admin/users` and `id` → `/api/admin/users/{id}`. */
export type RecordRoute<List extends string, Id extends string> = `${List}/{${Id}}`;

/**
 * Nothing when every route of `path` has an operation for `method`; else a property no resource
 * has, so the call naming the resource fails the build with the operation that is missing.
 */
export type Needs<Path extends string, M extends Verb> = [Path] extends [Route<M>]
  ? unknown
  : { missingOperation: `${M} ${Path}` };

/**
 * `by` a field of the list's records matched exactly (ids pass through); `search` names the list's
 * substring filter used to find it (else every page is read). `as-is`: the API takes names itself
 * (URL-encoded).
 */
type Lookup<List extends ListRoute> =
  | { by: keyof ListItem<List> & string; search?: QueryField<List, 'GET'> }
  | 'as-is';

/** The values of a collection route's own placeholders (`{nodeId}` of a host's containers). */
type ParentParams<List> = PathParamsOf<Operation<List, 'GET'>>;

/** The placeholders of one record's route: the collection's own, and the record's id. */
export type RecordParams<List, Id extends string> = [ParentParams<List>] extends [never]
  ? Record<Id, string>
  : ParentParams<List> & Record<Id, string>;

/** How a collection under another record finds the values of its placeholders (when it has some). */
type Parents<List> = [ParentParams<List>] extends [never]
  ? { parents?: never }
  : {
      /** E.g. `{nodeId}` from `--host`. */
      parents: (context: ApiContext) => Promise<ParentParams<List>>;
    };

/** Any resource, as the run-time code of the verbs reads it. */
export interface AnyResource {
  /** Singular name for arguments and messages (`database`). */
  noun: string;
  /** When not `<noun>s` (`deliveries`). */
  plural?: string;
  /** The collection's route (`/api/containerhost/nodes/{nodeId}/containers`). */
  list: string;
  /** The placeholder that names one of its records (`containerId`: `…/containers/{containerId}`). */
  id?: string;
  /** How a reference on the command line becomes the record's id (default: by name, searched). */
  lookup?: { by: string; search?: string } | 'as-is';
  /** Options every verb of this resource takes (e.g. `--host`). */
  scope?: readonly Flag[];
  /** The values of the collection's own placeholders (`{nodeId}` from `--host`). */
  parents?: (context: ApiContext) => Promise<Record<string, string>>;
}

/** A declared resource: its routes, which the verbs check their calls against. */
export interface Resource<List extends ListRoute = ListRoute, Id extends string = never> extends AnyResource {
  list: List;
  id?: Id;
}

/** A resource as it is declared, each of its parts checked against its routes. */
type Declaration<List extends ListRoute, Id extends string> = Resource<List, Id> & {
  lookup?: Lookup<List>;
} & Parents<List>;

/** Declares a resource, its routes and fields checked against the API document. */
export function resource<List extends ListRoute, Id extends string = never>(
  declared: Declaration<List, Id>,
): Resource<List, Id> {
  return declared;
}
