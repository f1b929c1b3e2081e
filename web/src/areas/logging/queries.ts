import { useQuery } from '@tanstack/react-query';
import { fetchAllPages } from '../../api/all-pages';
import { api, call } from '../../api/client';
import type { Answer, Body } from '../../api/types';

export type Environment = Answer<'/api/logging/environments', 'get'>['data'][number];
export type Schema = Answer<'/api/logging/schemas', 'get'>['data'][number];
export type SchemaField = Schema['fields'][number];
export type IngestToken = Answer<'/api/logging/environments/{id}/tokens', 'get'>['data'][number];
export type LogRecord = Answer<'/api/logging/environments/{id}/records', 'get'>['data'][number];
type FlatFolder = Answer<'/api/logging/schema-folders', 'get'>['data'][number];
/** A folder of `?tree=true`: the API documents `children` as "shaped like this node". */
export type FolderNode = Omit<FlatFolder, 'children'> & { children: FolderNode[] };

/** The logging area's places in the query cache; a change invalidates `LOGGING_KEY`. */
export const LOGGING_KEY = ['logging'];
export const ENVIRONMENTS_KEY = ['logging', 'environments'];
export const SCHEMAS_KEY = ['logging', 'schemas'];

/** The two folder trees; each has the same routes under its own path. */
export type TreeKind = 'schema' | 'environment';

type NewFolder = Body<'/api/logging/schema-folders', 'post'>;

/** The calls of one tree, typed by the generated paths of each. */
export const folderCalls = {
  schema: {
    tree: () => call(api.GET('/api/logging/schema-folders', { params: { query: { tree: true } } })),
    create: (body: NewFolder) => call(api.POST('/api/logging/schema-folders', { body })),
    move: (id: string, parentId: string | null) =>
      call(
        api.PUT('/api/logging/schema-folders/{id}/move', { params: { path: { id } }, body: { parentId } }),
      ),
    moveItem: (id: string, folderId: string | null) =>
      call(api.POST('/api/logging/schema-folders/move-schemas', { body: { ids: [id], folderId } })),
  },
  environment: {
    tree: () => call(api.GET('/api/logging/environment-folders', { params: { query: { tree: true } } })),
    create: (body: NewFolder) => call(api.POST('/api/logging/environment-folders', { body })),
    move: (id: string, parentId: string | null) =>
      call(
        api.PUT('/api/logging/environment-folders/{id}/move', {
          params: { path: { id } },
          body: { parentId },
        }),
      ),
    moveItem: (id: string, folderId: string | null) =>
      call(api.POST('/api/logging/environment-folders/move-environments', { body: { ids: [id], folderId } })),
  },
} as const;

/** One tree, nested (an installation has tens of folders, answered at once). */
export function useFolderTree(kind: TreeKind) {
  return useQuery({
    queryKey: [...LOGGING_KEY, kind, 'folders'],
    queryFn: async () => (await folderCalls[kind].tree()).data as FolderNode[],
  });
}

/** Every folder of a tree in reading order, with its depth and its path (`prod / eu`). */
export function flattenTree(nodes: readonly FolderNode[], depth = 0, prefix = ''): FlatNode[] {
  return nodes.flatMap((node) => {
    const path = prefix ? `${prefix} / ${node.name}` : node.name;
    return [{ node, depth, path }, ...flattenTree(node.children, depth + 1, path)];
  });
}

export interface FlatNode {
  node: FolderNode;
  depth: number;
  path: string;
}

/**
 * The schemas the environment form offers, read page after page (up to 1000; `total` says when
 * there are more, and the form says so).
 */
export function useSchemaChoices() {
  return useQuery({
    queryKey: [...SCHEMAS_KEY, 'choices'],
    queryFn: () => fetchAllPages((query) => call(api.GET('/api/logging/schemas', { params: { query } }))),
  });
}
