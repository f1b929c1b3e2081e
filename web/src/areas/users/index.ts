import { lazy } from 'react';
import type { ConsoleArea } from '../area';

const users: ConsoleArea = {
  label: 'Users',
  path: '/users',
  anyOf: ['admin:users'],
  description: 'user accounts and the groups whose scopes they hold',
  page: lazy(() => import('./UsersPage')),
};

export default users;
