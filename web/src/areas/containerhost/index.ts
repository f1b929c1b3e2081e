import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const containerhost: ConsoleArea = {
  label: 'Containers',
  path: '/containers',
  anyOf: ['containerhost:view'],
  description: 'container hosts: nodes, their containers, logs, images, networks and volumes',
  page: lazyPart(() => import('./ContainersPage')),
};

export default containerhost;
