import { lazy } from 'react';
import type { ConsoleArea } from '../area';

const nodes: ConsoleArea = {
  label: 'Nodes',
  path: '/nodes',
  anyOf: ['nodes:view'],
  description: 'storage nodes and resumable file uploads into them',
  page: lazy(() => import('./NodesPage')),
};

export default nodes;
