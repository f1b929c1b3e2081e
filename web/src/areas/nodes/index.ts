import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const nodes: ConsoleArea = {
  label: 'Nodes',
  path: '/nodes',
  anyOf: ['nodes:view'],
  description: 'storage nodes and resumable file uploads into them',
  page: lazyPart(() => import('./NodesPage')),
};

export default nodes;
