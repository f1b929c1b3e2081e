import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const databases: ConsoleArea = {
  label: 'Databases',
  path: '/databases',
  // The console needs a database picked from the registry, which `databases:view` lists.
  anyOf: ['databases:view'],
  description: 'key-value databases and their command console',
  page: lazyPart(() => import('./DatabasesPage')),
};

export default databases;
