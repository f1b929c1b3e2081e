import type { Command } from 'commander';
import { LOG_FIELD_TYPES } from '../../db/schema/logging.js';
import { apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { type Flag, idFlag, text, whole } from '../flags.js';
import {
  type AnyResource,
  type BodyField,
  createCommand,
  crudCommands,
  deleteCommand,
  getCommand,
  idOf,
  isRecord,
  lsCommand,
  resource,
  resourceCommand,
  updateCommand,
} from '../resource.js';
import { registerRecords } from './logging-records.js';

/** Logging: two folder trees (schema folders, environment folders), schemas and environments. */

/** The routes of each folder tree. */
const TREES = {
  schema: {
    folders: '/api/logging/schema-folders',
    reorder: '/api/logging/schema-folders/reorder',
    moveItems: '/api/logging/schema-folders/move-schemas',
    items: '/api/logging/schemas',
  },
  environment: {
    folders: '/api/logging/environment-folders',
    reorder: '/api/logging/environment-folders/reorder',
    moveItems: '/api/logging/environment-folders/move-environments',
    items: '/api/logging/environments',
  },
} as const;

type Tree = keyof typeof TREES;

/** A folder named by name or id; `root` is the top level (null). */
function folderFlag<Field extends string>(
  flags: string,
  field: Field,
  folders: AnyResource,
  description: string,
): Flag<Field> {
  return {
    flags,
    field,
    description: `${description} (name, id or root)`,
    parse: (value: string, context) => (value === 'root' ? null : idOf(folders, context, value)),
  };
}

/** The same, for list filters, where the API takes `root` itself. */
function folderFilter<Field extends string>(flags: string, field: Field, folders: AnyResource): Flag<Field> {
  return {
    flags,
    field,
    description: 'only in this folder (name, id or root)',
    parse: (value: string, context) => (value === 'root' ? 'root' : idOf(folders, context, value)),
  };
}

/** The folders of a tree, a line each, indented by depth (the document types children as a list only). */
function printTree(folders: readonly unknown[], depth = 0): string[] {
  return folders
    .filter(isRecord)
    .flatMap((folder) => [
      `${'  '.repeat(depth)}${folder.name}  ${folder.id}`,
      ...printTree(Array.isArray(folder.children) ? folder.children : [], depth + 1),
    ]);
}

function registerFolders(program: Command, tree: Tree) {
  const routes = TREES[tree];
  const folders = resource({ noun: 'folder', list: routes.folders, id: 'id' });
  const area = program.command(`${tree}-folders`).description(`the ${tree} folder tree`);
  lsCommand(area, folders, {
    columns: ['name', 'parentId', 'sortOrder', 'id'],
    filters: [
      folderFilter('--parent <folder>', 'parentId', folders),
      text('--q <text>', 'q', 'substring of the name'),
    ],
  });
  apiAction(resourceCommand(area, folders, 'tree', 'show the whole tree'), async (context) => {
    const { data: roots } = await context.api.call('GET', routes.folders, { query: { tree: true } });
    if (context.out.json) context.out.record(roots);
    else context.out.line(printTree(roots).join('\n') || '(none)');
  });
  getCommand(area, folders);
  createCommand(area, folders, {
    flags: [
      text('--name <name>', 'name', 'folder name', true),
      folderFlag('--parent <folder>', 'parentId', folders, 'parent folder'),
    ],
  });
  updateCommand(area, folders, {
    name: 'rename',
    args: '<name>',
    method: 'PUT',
    flags: [],
    fromArgs: ([name]) => ({ name }),
    description: 'rename a folder',
  });
  updateCommand(area, folders, {
    name: 'move',
    method: 'PUT',
    path: '/move',
    flags: [{ ...folderFlag('--parent <folder>', 'parentId', folders, 'new parent folder'), required: true }],
    description: 'move a folder and its subtree under another parent (at the end)',
  });
  apiAction(
    resourceCommand(
      area,
      folders,
      'reorder <folders...>',
      'put these children of --parent first, in this order',
    ).requiredOption('--parent <folder>', 'their parent (name, id or root)'),
    async (context) => {
      const [refs]: [string[]] = context.args;
      const parentId =
        context.opts.parent === 'root' ? null : await idOf(folders, context, context.opts.parent);
      const ids = await Promise.all(refs.map((ref) => idOf(folders, context, ref)));
      const { data } = await context.api.call('PUT', routes.reorder, { json: { parentId, ids } });
      context.out.list(data, ['name', 'sortOrder', 'id']);
    },
  );
  deleteCommand(area, folders, {
    flags: [{ flags: '--recursive', field: 'recursive', description: 'also delete what the folder holds' }],
  });
  return folders;
}

type ItemList = (typeof TREES)[Tree]['items'];

function registerItems(
  program: Command,
  kind: Tree,
  folders: AnyResource,
  extra: readonly Flag<BodyField<ItemList, 'POST'>>[],
) {
  const plural = `${kind}s`;
  const routes = TREES[kind];
  const items = resource({ noun: kind, list: routes.items, id: 'id' });
  const area = program.command(plural).description(`logging ${plural}`);
  const flags = (creating: boolean) => [
    text('--name <name>', 'name', `${kind} name`, creating),
    folderFlag('--folder <folder>', 'folderId', folders, 'folder'),
    text('--description <text>', 'description', 'description'),
    ...extra,
  ];
  crudCommands(area, items, {
    list: {
      columns:
        kind === 'schema'
          ? ['name', 'folderId', 'description', 'id']
          : ['name', 'folderId', 'schemaId', 'retentionDays', 'id'],
      filters: [
        folderFilter('--folder <folder>', 'folderId', folders),
        ...(kind === 'environment' ? [schemaFilter] : []),
        text('--q <text>', 'q', 'substring of the name'),
      ],
    },
    // A schema needs its field list, even an empty one.
    create: { flags: flags(true), fromArgs: () => (kind === 'schema' ? { fields: [] } : {}) },
    update: { method: 'PUT', flags: flags(false) },
  });
  apiAction(
    resourceCommand(area, items, `move <${plural}...>`, `move ${plural} into a folder`).requiredOption(
      '--folder <folder>',
      'target folder (name, id or root)',
    ),
    async (context) => {
      const [refs]: [string[]] = context.args;
      const folderId =
        context.opts.folder === 'root' ? null : await idOf(folders, context, context.opts.folder);
      const ids = await Promise.all(refs.map((ref) => idOf(items, context, ref)));
      const { data } = await context.api.call('POST', routes.moveItems, { json: { ids, folderId } });
      context.out.done(data, `moved ${ids.length} ${plural}`);
    },
  );
  return items;
}

const schemas = resource({ noun: 'schema', list: '/api/logging/schemas', id: 'id' });

const schemaFilter = idFlag(
  '--schema <schema>',
  'schemaId',
  'only environments of this schema (name or id)',
  (context, ref) => idOf(schemas, context, ref),
);

/** `--field name:type[:required]`, repeatable, in order. */
const schemaFields: Flag<'fields'> = {
  flags: '--schema-field <name:type[:required]>',
  field: 'fields',
  description: `a schema field; type is ${LOG_FIELD_TYPES.join(', ')}`,
  repeatable: true,
  parse: (specs: string[]) =>
    specs.map((spec) => {
      const [name, type, required, ...rest] = spec.split(':');
      const fieldType = LOG_FIELD_TYPES.find((known) => known === type);
      if (!name || !fieldType || rest.length > 0 || (required && required !== 'required'))
        throw new CliError(
          `--schema-field ${spec} is not name:type or name:type:required (type: ${LOG_FIELD_TYPES.join(', ')})`,
        );
      return { name, type: fieldType, required: required === 'required' };
    }),
};

export function registerLogging(program: Command): void {
  const area = program
    .command('logging')
    .description('logging folders, schemas and environments (logging:view|manage)');
  const schemaFolders = registerFolders(area, 'schema');
  const environmentFolders = registerFolders(area, 'environment');
  registerItems(area, 'schema', schemaFolders, [schemaFields]);
  const environments = registerItems(area, 'environment', environmentFolders, [
    {
      ...schemaFilter,
      description: 'schema the records follow (name, id, or none)',
      parse: (value: string, context) => (value === 'none' ? null : idOf(schemas, context, value)),
    },
    whole('--retention-days <days>', 'retentionDays', 'days records are kept (1-3650)'),
  ]);
  registerRecords(area, environments);
}
