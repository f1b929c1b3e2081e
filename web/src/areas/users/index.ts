import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const users: ConsoleArea = {
  label: 'Users',
  path: '/users',
  anyOf: ['admin:users'],
  description: 'user accounts and the groups whose scopes they hold',
  page: lazyPart(() => import('./UsersPage')),
};

export default users;
