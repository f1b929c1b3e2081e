import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';

export type EngineNode = Answer<'/api/containerhost/nodes', 'get'>['data'][number];
export type ContainerRow = Answer<'/api/containerhost/nodes/{nodeId}/containers', 'get'>['data'][number];
export type Container = Answer<'/api/containerhost/nodes/{nodeId}/containers/{containerId}', 'get'>['data'];
export type Port = ContainerRow['ports'][number];

/** The area's places in the query cache; a change invalidates `CONTAINERHOST_KEY` or its node's key. */
export const CONTAINERHOST_KEY = ['containerhost'];
export const NODE_LIST_KEY = ['containerhost', 'nodes'];
export const nodeKey = (nodeId: string) => ['containerhost', 'node', nodeId];
export const containerKey = (nodeId: string, containerId: string) => [
  ...nodeKey(nodeId),
  'container',
  containerId,
];

/**
 * Whether the signed-in user may change what is on one node (containers, images…), or, without a
 * node, the whole area (adding nodes, folders and the saved order).
 */
export function useMayManageContainers(nodeId?: string): boolean {
  return mayUse(useCurrentUser().scopes, 'containerhost:manage', nodeId);
}

export function useNode(nodeId: string) {
  return useQuery({
    queryKey: nodeKey(nodeId),
    queryFn: () => call(api.GET('/api/containerhost/nodes/{nodeId}', { params: { path: { nodeId } } })),
    retry: false,
  });
}

/** `127.0.0.1:8081→8080/tcp`, or `8080/tcp` for a port that is not published. */
export function formatPort(port: Port): string {
  const inside = `${port.privatePort}/${port.type}`;
  if (port.publicPort === null) return inside;
  return `${port.ip ? `${port.ip}:` : ''}${port.publicPort}→${inside}`;
}

/** The URL of a node's page (and below it, e.g. `/images`). */
export function nodePath(nodeId: string, rest = ''): string {
  return `/containers/${nodeId}${rest}`;
}

/** A health check's status as a colour: online green, degraded yellow, offline red, disabled grey. */
export const STATUS_COLORS: Record<string, string> = {
  online: 'green',
  degraded: 'yellow',
  offline: 'red',
  disabled: 'gray',
};
