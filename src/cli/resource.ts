import type { Command } from 'commander';
import { isUuid } from '../core/ids.js';
import type { RequestOptions, Verb } from './api-client.js';
import { type ApiContext, apiAction } from './api-command.js';
import { CliError } from './cli-error.js';
import type { FieldPath } from './field-paths.js';
import { collect, fieldArguments, fieldsToBody, readTextArgument } from './fields.js';
import { addFlags, bodyFromFlags, type Flag, integer } from './flags.js';
import type { Pagination } from './output.js';
import type {
  AnyResource,
  BodyField,
  ListItem,
  ListRoute,
  Needs,
  QueryField,
  RecordParams,
  RecordRoute,
  Resource,
} from './resource-types.js';

export {
  type AnyResource,
  type BodyField,
  type QueryField,
  type Resource,
  resource,
} from './resource-types.js';

/**
 * The verbs shared by every area (`ls`, `get`, `create`, `update`, `delete` and actions on one
 * record), built from a description of the resource so each area file only says what differs. The
 * routes, columns and fields each verb is given are checked against the API document by the types
 * of resource-types.ts; the calls themselves are put together here at run time.
 */

/** A JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPagination = (value: unknown): value is Pagination =>
  isRecord(value) && typeof value.totalPages === 'number';

/** The record of an answer: `data` of the envelope, or the answer itself for the bare ones. */
export function unwrap(answer: unknown): unknown {
  return isRecord(answer) && 'data' in answer ? answer.data : answer;
}

/** The records of a list's answer and its pagination (none for a bare array or an unpaginated list). */
function pageOf(answer: unknown): { rows: unknown[]; pagination?: Pagination } {
  const rows = unwrap(answer);
  const pagination = isRecord(answer) && isPagination(answer.pagination) ? answer.pagination : undefined;
  return { rows: Array.isArray(rows) ? rows : [], ...(pagination ? { pagination } : {}) };
}

const plural = (resource: AnyResource) => resource.plural ?? `${resource.noun}s`;
const article = (resource: AnyResource) => `${/^[aeiou]/.test(resource.noun) ? 'an' : 'a'} ${resource.noun}`;

/** The plain `{success: true}` answer of an action. */
function isSuccess(answer: unknown): boolean {
  return isRecord(answer) && answer.success === true && !('data' in answer);
}

/** The values of the collection's own placeholders. */
async function parentsOf(resource: AnyResource, context: ApiContext): Promise<Record<string, string>> {
  return resource.parents ? resource.parents(context) : {};
}

/** Every record of a list (its placeholders filled from `path`), page by page. */
async function readAll(
  context: ApiContext,
  resource: AnyResource,
  path: Record<string, string>,
  query: RequestOptions['query'] = {},
) {
  const rows: unknown[] = [];
  for (let page = 1; ; page++) {
    const answer = await context.api.request('GET', resource.list, {
      path,
      query: { ...query, page, limit: 100 },
    });
    const found = pageOf(answer);
    rows.push(...found.rows);
    if (!found.pagination || page >= found.pagination.totalPages) return rows;
  }
}

/**
 * The id of the record `ref` names (an id passes through), found in the list whose placeholders
 * `parents` gives (asked only when the list is read).
 */
async function findId(
  resource: AnyResource,
  context: ApiContext,
  parents: () => Promise<Record<string, string>>,
  ref: string,
): Promise<string> {
  const lookup = resource.lookup ?? { by: 'name', search: 'q' };
  if (lookup === 'as-is' || isUuid(ref)) return ref;
  const search = lookup.search ? { [lookup.search]: ref } : {};
  const ids = (await readAll(context, resource, await parents(), search))
    .filter(isRecord)
    .filter((row) => row[lookup.by] === ref)
    .map((row) => row.id);
  const [id] = ids;
  if (ids.length === 1 && typeof id === 'string') return id;
  if (ids.length === 0) throw new CliError(`no ${resource.noun} with ${lookup.by} ${ref}`);
  throw new CliError(`${ids.length} ${plural(resource)} have ${lookup.by} ${ref}; name it by id`);
}

/** The id of the record a reference names (an id passes through). */
export function idOf(resource: AnyResource, context: ApiContext, ref: string): Promise<string> {
  return findId(resource, context, () => parentsOf(resource, context), ref);
}

/** The placeholders of one record's route: the collection's, and the record's id found from `ref`. */
async function paramsOf(
  resource: AnyResource,
  context: ApiContext,
  ref: string,
): Promise<Record<string, string>> {
  if (!resource.id) throw new Error(`${resource.list} names no record`);
  const parents = await parentsOf(resource, context);
  return { ...parents, [resource.id]: await findId(resource, context, async () => parents, ref) };
}

/** The placeholders of one record's route (`{nodeId, containerId}`), for a typed call of the API. */
export function recordParams<List extends ListRoute, Id extends string>(
  resource: Resource<List, Id>,
  context: ApiContext,
  ref: string,
): Promise<RecordParams<List, Id>>;
export function recordParams(resource: AnyResource, context: ApiContext, ref: string) {
  return paramsOf(resource, context, ref);
}

const recordRouteOf = (resource: AnyResource) => `${resource.list}/{${resource.id}}`;

/** A command on this resource (`<verb> [args]`) with the resource's own options (e.g. `--host`). */
export function resourceCommand(
  parent: Command,
  resource: AnyResource,
  nameAndArgs: string,
  description: string,
): Command {
  return addFlags(parent.command(nameAndArgs).description(description), resource.scope ?? []);
}

export interface ListOptions<List> {
  /** Fields of the listed records (dots for nested ones, `health.status`). */
  columns: FieldPath<ListItem<List>>[];
  /** Query filters: the flag's value is sent as the parameter named by `field`. */
  filters?: readonly Flag<QueryField<List, 'GET'>>[];
  description?: string;
  /** The list is one page without pagination (e.g. `?tree=true`, groups). */
  unpaginated?: boolean;
  /** Verb and arguments when not `ls` (e.g. `results <container>`). */
  name?: string;
}

/** `ls` (alias `list`): a page of the list (`--page`, `--limit`), or every page with `--all-pages`. */
export function lsCommand<List extends ListRoute, Id extends string>(
  parent: Command,
  resource: Resource<List, Id>,
  options: NoInfer<ListOptions<List>>,
): Command {
  const description = options.description ?? `list ${plural(resource)}`;
  const command = options.name
    ? resourceCommand(parent, resource, options.name, description)
    : resourceCommand(parent, resource, 'ls', description).alias('list');
  addFlags(command, options.filters ?? []);
  if (!options.unpaginated)
    command
      .option('--page <n>', 'page number, from 1')
      .option('--limit <n>', 'records per page (1-100, default 20)')
      .option('--all-pages', 'read every page');
  return apiAction(command, async (context) => {
    const path = await parentsOf(resource, context);
    const filters = await bodyFromFlags(context, options.filters ?? []);
    if (context.opts.allPages)
      return context.out.list(await readAll(context, resource, path, filters), options.columns);
    const answer = await context.api.request('GET', resource.list, {
      path,
      query: {
        ...filters,
        page: context.opts.page === undefined ? undefined : integer(context.opts.page, '--page'),
        limit: context.opts.limit === undefined ? undefined : integer(context.opts.limit, '--limit'),
      },
    });
    const { rows, pagination } = pageOf(answer);
    context.out.list(rows, options.columns, pagination);
  });
}

/** `get <ref>`: one record. */
export function getCommand<List extends ListRoute, Id extends string>(
  parent: Command,
  resource: Resource<List, Id> & Needs<RecordRoute<List, Id>, 'GET'>,
  description?: string,
): Command {
  const command = resourceCommand(
    parent,
    resource,
    `get <${resource.noun}>`,
    description ?? `show one ${resource.noun}`,
  );
  return apiAction(command, async (context) => {
    const path = await paramsOf(resource, context, context.args[0]);
    context.out.record(unwrap(await context.api.request('GET', recordRouteOf(resource), { path })));
  });
}

export interface BodyOptions<Path, M extends Verb> {
  flags: readonly Flag<BodyField<Path, M>>[];
  description?: string;
  /** Arguments after the verb (`<name>`), read by `args`. */
  args?: string;
  /** Body fields from the arguments. */
  // biome-ignore lint/suspicious/noExplicitAny: argument values are strings or arrays of them
  fromArgs?: (args: any[]) => Partial<Record<BodyField<Path, M>, unknown>>;
}

/** `-f`, `-F` and `--input`, for fields no flag covers (the syntax of `infragate api`). */
function addFieldOptions(command: Command): Command {
  return command
    .option('-f, --raw-field <key=value>', 'another body field, as a string (repeatable)', collect)
    .option(
      '-F, --field <key=value>',
      'another body field, typed: numbers, true/false/null, @file (repeatable)',
      collect,
    )
    .option('--input <file>', 'the JSON body to start from (- for standard input)');
}

/** The request body: `--input`, then the command's arguments, `-f`/`-F` fields and its flags, each overriding the one before. */
async function bodyOf(
  context: ApiContext,
  // biome-ignore lint/suspicious/noExplicitAny: argument values are strings or arrays of them
  options: { flags: readonly Flag[]; fromArgs?: (args: any[]) => object },
  args: unknown[],
): Promise<Record<string, unknown>> {
  const base: unknown = context.opts.input
    ? JSON.parse(await readTextArgument(context.opts.input, '--input'))
    : {};
  const fields = await fieldsToBody(fieldArguments(context.opts.rawField, context.opts.field));
  return {
    ...(isRecord(base) ? base : {}),
    ...options.fromArgs?.(args),
    ...fields,
    ...(await bodyFromFlags(context, options.flags)),
  };
}

/** `create`: POST to the collection (or `path` under it), prints the new record. */
export function createCommand<List extends ListRoute, Id extends string, Path extends string = ''>(
  parent: Command,
  resource: Resource<List, Id> & Needs<`${List}${Path}`, 'POST'>,
  options: NoInfer<BodyOptions<`${List}${Path}`, 'POST'>> & { path?: Path; name?: string },
): Command {
  const command = resourceCommand(
    parent,
    resource,
    [options.name ?? 'create', options.args].filter(Boolean).join(' '),
    options.description ?? `create ${article(resource)}`,
  );
  addFieldOptions(addFlags(command, options.flags));
  return apiAction(command, async (context) => {
    const answer = await context.api.request('POST', `${resource.list}${options.path ?? ''}`, {
      path: await parentsOf(resource, context),
      json: await bodyOf(context, options, context.args),
    });
    context.out.record(unwrap(answer));
  });
}

/** `update <ref>`: PATCH (or PUT) with the fields given; the others stay as they are. */
export function updateCommand<
  List extends ListRoute,
  Id extends string,
  M extends Verb = 'PATCH',
  Path extends string = '',
>(
  parent: Command,
  resource: Resource<List, Id> & Needs<`${RecordRoute<List, Id>}${Path}`, M>,
  options: NoInfer<BodyOptions<`${RecordRoute<List, Id>}${Path}`, M>> & {
    method?: M;
    name?: string;
    path?: Path;
  },
): Command {
  const command = resourceCommand(
    parent,
    resource,
    `${options.name ?? 'update'} <${resource.noun}>${options.args ? ` ${options.args}` : ''}`,
    options.description ?? `change ${article(resource)} (fields left out stay as they are)`,
  );
  addFieldOptions(addFlags(command, options.flags));
  return apiAction(command, async (context) => {
    const [ref, ...args] = context.args;
    const answer = await context.api.request(
      options.method ?? 'PATCH',
      `${recordRouteOf(resource)}${options.path ?? ''}`,
      { path: await paramsOf(resource, context, ref), json: await bodyOf(context, options, args) },
    );
    context.out.record(unwrap(answer));
    const dropped = isRecord(answer) && Array.isArray(answer.droppedSecrets) ? answer.droppedSecrets : [];
    if (dropped.length > 0)
      context.out.notice(
        `note: the destination changed, so the stored ${dropped.join(', ')} ${dropped.length === 1 ? 'was' : 'were'} removed; give ${dropped.length === 1 ? 'it' : 'them'} again to use ${dropped.length === 1 ? 'it' : 'them'}`,
      );
  });
}

/** `delete <ref>` (or another verb, e.g. `revoke`). */
export function deleteCommand<List extends ListRoute, Id extends string>(
  parent: Command,
  resource: Resource<List, Id> & Needs<RecordRoute<List, Id>, 'DELETE'>,
  options: NoInfer<{
    /** Query flags, e.g. `--force`. */
    flags?: readonly Flag<QueryField<RecordRoute<List, Id>, 'DELETE'>>[];
    name?: string;
    description?: string;
    done?: string;
  }> = {},
): Command {
  const name = options.name ?? 'delete';
  const command = resourceCommand(
    parent,
    resource,
    `${name} <${resource.noun}>`,
    options.description ?? `delete ${article(resource)}`,
  );
  if (name === 'delete') command.alias('rm');
  addFlags(command, options.flags ?? []);
  return apiAction(command, async (context) => {
    const answer = await context.api.request('DELETE', recordRouteOf(resource), {
      path: await paramsOf(resource, context, context.args[0]),
      query: await bodyFromFlags(context, options.flags ?? []),
    });
    context.out.done(unwrap(answer), `${options.done ?? 'deleted'} ${resource.noun} ${context.args[0]}`);
  });
}

export interface ActionOptions<Path, M extends Verb> {
  /** Verb and extra arguments (`stop`, `disconnect <container>`). */
  name: string;
  description: string;
  flags?: readonly Flag<BodyField<Path, M>>[];
  /** Query flags, e.g. `--force`. */
  query?: readonly Flag<QueryField<Path, M>>[];
  // biome-ignore lint/suspicious/noExplicitAny: argument values are strings or arrays of them
  fromArgs?: (args: any[]) => Partial<Record<BodyField<Path, M>, unknown>>;
  /** What to say when the answer is `{success: true}`. */
  done?: string;
}

/** An action on one record: `<verb> <ref> …` → `POST <record><path>`, printing what came back. */
export function actionCommand<
  List extends ListRoute,
  Id extends string,
  Path extends string,
  M extends Verb = 'POST',
>(
  parent: Command,
  resource: Resource<List, Id> & Needs<`${RecordRoute<List, Id>}${Path}`, M>,
  options: NoInfer<ActionOptions<`${RecordRoute<List, Id>}${Path}`, M>> & {
    method?: M;
    /** Route after the record's (`/stop`). */
    path: Path;
  },
): Command {
  const [name, ...rest] = options.name.split(' ');
  const command = resourceCommand(
    parent,
    resource,
    [name, `<${resource.noun}>`, ...rest].join(' '),
    options.description,
  );
  addFlags(addFlags(command, options.flags ?? []), options.query ?? []);
  return apiAction(command, async (context) => {
    const [ref, ...args] = context.args;
    const path = await paramsOf(resource, context, ref);
    const json =
      options.flags || options.fromArgs
        ? { ...options.fromArgs?.(args), ...(await bodyFromFlags(context, options.flags ?? [])) }
        : undefined;
    const query = await bodyFromFlags(context, options.query ?? []);
    const answer = await context.api.request(
      options.method ?? 'POST',
      `${recordRouteOf(resource)}${options.path}`,
      { path, json, query },
    );
    if (isSuccess(answer)) context.out.done(answer, `${options.done ?? `${name}: done`} (${ref})`);
    else context.out.record(unwrap(answer));
  });
}

/** The five usual verbs: `ls`, `get`, `create`, `update`, `delete`. */
export function crudCommands<
  List extends ListRoute,
  Id extends string,
  CreatePath extends string = '',
  UpdateMethod extends Verb = 'PATCH',
>(
  parent: Command,
  resource: Resource<List, Id> &
    Needs<RecordRoute<List, Id>, 'GET'> &
    Needs<RecordRoute<List, Id>, 'DELETE'> &
    Needs<RecordRoute<List, Id>, UpdateMethod> &
    Needs<`${List}${CreatePath}`, 'POST'>,
  options: {
    list: NoInfer<ListOptions<List>>;
    /** Description of `get` when it does more than show the record. */
    get?: string;
    create: NoInfer<BodyOptions<`${List}${CreatePath}`, 'POST'>> & { path?: CreatePath; name?: string };
    update: NoInfer<BodyOptions<RecordRoute<List, Id>, UpdateMethod>> & {
      method?: UpdateMethod;
      name?: string;
    };
  },
): void {
  lsCommand<List, Id>(parent, resource, options.list);
  getCommand<List, Id>(parent, resource, options.get);
  createCommand<List, Id, CreatePath>(parent, resource, options.create);
  updateCommand<List, Id, UpdateMethod>(parent, resource, options.update);
  deleteCommand<List, Id>(parent, resource);
}
