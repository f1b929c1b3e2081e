import type { Command } from 'commander';
import { isUuid } from '../core/ids.js';
import type { HttpMethod, QueryValues } from './api-client.js';
import { type ApiContext, apiAction } from './api-command.js';
import { CliError } from './cli-error.js';
import { collect, fieldArguments, fieldsToBody, readTextArgument } from './fields.js';
import { addFlags, bodyFromFlags, type Flag, integer } from './flags.js';
import type { Pagination } from './output.js';

/**
 * The verbs shared by every area (`ls`, `get`, `create`, `update`, `delete` and actions on one
 * record), built from a description of the resource so each area file only says what differs.
 */

export interface Resource {
  /** Singular name for arguments and messages (`database`). */
  noun: string;
  /** When not `<noun>s` (`deliveries`). */
  plural?: string;
  /** Collection route, or how to find it (resources under a parent need the parent's options). */
  route: string | ((context: ApiContext) => Promise<string>);
  /** How a reference on the command line becomes the record's path segment. */
  lookup?: Lookup;
  /** Options every verb of this resource takes (e.g. `--host`). */
  scope?: Flag[];
}

/**
 * `by` a field matched exactly (ids pass through); `search` names the list's substring filter used
 * to find it (else every page is read). `as-is`: the API takes names itself (URL-encoded).
 */
export type Lookup = { by: string; search?: string } | 'as-is';

type Envelope = { data?: unknown; pagination?: Pagination };

/** The record of an answer: `data` of the envelope, or the answer itself for the bare ones. */
export function unwrap(answer: unknown): unknown {
  return answer && typeof answer === 'object' && 'data' in answer ? (answer as Envelope).data : answer;
}

const plural = (resource: Resource) => resource.plural ?? `${resource.noun}s`;
const article = (resource: Resource) => `${/^[aeiou]/.test(resource.noun) ? 'an' : 'a'} ${resource.noun}`;

/** The plain `{success: true}` answer of an action. */
function isSuccess(answer: unknown): boolean {
  return Boolean(
    answer &&
      typeof answer === 'object' &&
      (answer as { success?: unknown }).success === true &&
      !('data' in answer),
  );
}

async function routeOf(resource: Resource, context: ApiContext): Promise<string> {
  return typeof resource.route === 'string' ? resource.route : resource.route(context);
}

/** Every record of a list, page by page. */
async function readAll(context: ApiContext, route: string, query: QueryValues = {}) {
  const rows: unknown[] = [];
  for (let page = 1; ; page++) {
    const answer = await context.api.call<Envelope>('GET', route, { query: { ...query, page, limit: 100 } });
    rows.push(...((answer.data as unknown[]) ?? []));
    if (!answer.pagination || page >= answer.pagination.totalPages) return rows;
  }
}

/** The path of one record: `<collection>/<id>`, the id found from a name when needed. */
export async function recordRoute(resource: Resource, context: ApiContext, ref: string): Promise<string> {
  const route = await routeOf(resource, context);
  return `${route}/${encodeURIComponent(await resolveRef(context, route, resource, ref))}`;
}

/** The id of the record a reference names (an id passes through). */
export async function idOf(resource: Resource, context: ApiContext, ref: string): Promise<string> {
  return resolveRef(context, await routeOf(resource, context), resource, ref);
}

async function resolveRef(
  context: ApiContext,
  route: string,
  resource: Resource,
  ref: string,
): Promise<string> {
  const lookup = resource.lookup ?? { by: 'name', search: 'q' };
  if (lookup === 'as-is' || isUuid(ref)) return ref;
  const search = lookup.search ? { [lookup.search]: ref } : {};
  const matches = (await readAll(context, route, search)).filter(
    (row) => (row as Record<string, unknown>)[lookup.by] === ref,
  ) as { id: string }[];
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length === 0) throw new CliError(`no ${resource.noun} with ${lookup.by} ${ref}`);
  throw new CliError(`${matches.length} ${plural(resource)} have ${lookup.by} ${ref}; name it by id`);
}

/** A command on this resource (`<verb> [args]`) with the resource's own options (e.g. `--host`). */
export function resourceCommand(
  parent: Command,
  resource: Resource,
  nameAndArgs: string,
  description: string,
): Command {
  return addFlags(parent.command(nameAndArgs).description(description), resource.scope ?? []);
}

export interface ListOptions {
  columns: string[];
  /** Query filters: the flag's value is sent as the parameter named by `field`. */
  filters?: Flag[];
  description?: string;
  /** The list is one page without pagination (e.g. `?tree=true`, groups). */
  unpaginated?: boolean;
  /** Verb and arguments when not `ls` (e.g. `results <container>`). */
  name?: string;
}

/** `ls`: a page of the list (`--page`, `--limit`), or every page with `--all-pages`. */
export function lsCommand(parent: Command, resource: Resource, options: ListOptions): Command {
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
    const route = await routeOf(resource, context);
    const filters = (await bodyFromFlags(context, options.filters ?? [])) as QueryValues;
    if (context.opts.allPages)
      return context.out.list(await readAll(context, route, filters), options.columns);
    const answer = await context.api.call<Envelope>('GET', route, {
      query: {
        ...filters,
        page: context.opts.page === undefined ? undefined : integer(context.opts.page, '--page'),
        limit: context.opts.limit === undefined ? undefined : integer(context.opts.limit, '--limit'),
      },
    });
    context.out.list((unwrap(answer) as unknown[]) ?? [], options.columns, answer.pagination);
  });
}

/** `get <ref>`: one record. */
export function getCommand(parent: Command, resource: Resource, description?: string): Command {
  const command = resourceCommand(
    parent,
    resource,
    `get <${resource.noun}>`,
    description ?? `show one ${resource.noun}`,
  );
  return apiAction(command, async (context) => {
    const route = await recordRoute(resource, context, context.args[0]);
    context.out.record(unwrap(await context.api.call('GET', route)));
  });
}

export interface BodyOptions {
  flags: Flag[];
  description?: string;
  /** Arguments after the verb (`<name>`), read by `args`. */
  args?: string;
  /** Body fields from the arguments. */
  // biome-ignore lint/suspicious/noExplicitAny: argument values are strings or arrays of them
  fromArgs?: (args: any[]) => Record<string, unknown>;
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
async function bodyOf(context: ApiContext, options: BodyOptions): Promise<Record<string, unknown>> {
  const base = context.opts.input
    ? (JSON.parse(await readTextArgument(context.opts.input, '--input')) as Record<string, unknown>)
    : {};
  const fields = await fieldsToBody(fieldArguments(context.opts.rawField, context.opts.field));
  return {
    ...base,
    ...options.fromArgs?.(context.args),
    ...fields,
    ...(await bodyFromFlags(context, options.flags)),
  };
}

/** `create`: POST to the collection (or `path` under it), prints the new record. */
export function createCommand(
  parent: Command,
  resource: Resource,
  options: BodyOptions & { path?: string; name?: string },
): Command {
  const command = resourceCommand(
    parent,
    resource,
    [options.name ?? 'create', options.args].filter(Boolean).join(' '),
    options.description ?? `create ${article(resource)}`,
  );
  addFieldOptions(addFlags(command, options.flags));
  return apiAction(command, async (context) => {
    const route = `${await routeOf(resource, context)}${options.path ?? ''}`;
    context.out.record(
      unwrap(await context.api.call('POST', route, { json: await bodyOf(context, options) })),
    );
  });
}

/** `update <ref>`: PATCH (or PUT) with the fields given; the others stay as they are. */
export function updateCommand(
  parent: Command,
  resource: Resource,
  options: BodyOptions & { method?: HttpMethod; name?: string; path?: string },
): Command {
  const command = resourceCommand(
    parent,
    resource,
    `${options.name ?? 'update'} <${resource.noun}>${options.args ? ` ${options.args}` : ''}`,
    options.description ?? `change ${article(resource)} (fields left out stay as they are)`,
  );
  addFieldOptions(addFlags(command, options.flags));
  return apiAction(command, async (context) => {
    const route = `${await recordRoute(resource, context, context.args[0])}${options.path ?? ''}`;
    const body = await bodyOf(context, {
      ...options,
      fromArgs: (args) => options.fromArgs?.(args.slice(1)) ?? {},
    });
    context.out.record(unwrap(await context.api.call(options.method ?? 'PATCH', route, { json: body })));
  });
}

/** `delete <ref>` (or another verb, e.g. `revoke`). */
export function deleteCommand(
  parent: Command,
  resource: Resource,
  options: { flags?: Flag[]; name?: string; description?: string; done?: string } = {},
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
    const route = await recordRoute(resource, context, context.args[0]);
    const query = (await bodyFromFlags(context, options.flags ?? [])) as QueryValues;
    const answer = await context.api.call('DELETE', route, { query });
    context.out.done(unwrap(answer), `${options.done ?? 'deleted'} ${resource.noun} ${context.args[0]}`);
  });
}

export interface ActionOptions {
  /** Verb and extra arguments (`stop`, `disconnect <container>`). */
  name: string;
  description: string;
  method?: HttpMethod;
  /** Path after the record (`/stop`). */
  path: string;
  flags?: Flag[];
  /** Query flags, e.g. `--force`. */
  query?: Flag[];
  // biome-ignore lint/suspicious/noExplicitAny: argument values are strings or arrays of them
  fromArgs?: (args: any[]) => Record<string, unknown>;
  /** What to say when the answer is `{success: true}`. */
  done?: string;
}

/** An action on one record: `<verb> <ref> …` → `POST <record><path>`, printing what came back. */
export function actionCommand(parent: Command, resource: Resource, options: ActionOptions): Command {
  const [name, ...rest] = options.name.split(' ');
  const command = resourceCommand(
    parent,
    resource,
    [name, `<${resource.noun}>`, ...rest].join(' '),
    options.description,
  );
  addFlags(addFlags(command, options.flags ?? []), options.query ?? []);
  return apiAction(command, async (context) => {
    const route = `${await recordRoute(resource, context, context.args[0])}${options.path}`;
    const json =
      options.flags || options.fromArgs
        ? {
            ...options.fromArgs?.(context.args.slice(1)),
            ...(await bodyFromFlags(context, options.flags ?? [])),
          }
        : undefined;
    const query = (await bodyFromFlags(context, options.query ?? [])) as QueryValues;
    const answer = await context.api.call(options.method ?? 'POST', route, { json, query });
    if (isSuccess(answer))
      context.out.done(answer, `${options.done ?? `${name}: done`} (${context.args[0]})`);
    else context.out.record(unwrap(answer));
  });
}

export interface CrudOptions {
  list: ListOptions;
  /** Description of `get` when it does more than show the record. */
  get?: string;
  create: BodyOptions & { path?: string; name?: string };
  update: BodyOptions & { method?: HttpMethod; name?: string };
}

/** The five usual verbs: `ls`, `get`, `create`, `update`, `delete`. */
export function crudCommands(parent: Command, resource: Resource, options: CrudOptions): void {
  lsCommand(parent, resource, options.list);
  getCommand(parent, resource, options.get);
  createCommand(parent, resource, options.create);
  updateCommand(parent, resource, options.update);
  deleteCommand(parent, resource);
}
