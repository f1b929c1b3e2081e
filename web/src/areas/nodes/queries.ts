import type { Answer } from '../../api/types';

export type StorageNode = Answer<'/api/nodes', 'get'>['data'][number];
export type Upload = Answer<'/api/nodes/{id}/files/uploads/{uploadId}', 'get'>['data'];

/** The nodes area's place in the query cache; a change invalidates all of it. */
export const NODES_KEY = ['nodes'];
export const uploadsKey = (nodeId: string) => ['nodes', nodeId, 'uploads'];
