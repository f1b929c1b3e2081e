import { lazy } from 'react';
import type { ConsoleArea } from '../area';

const account: ConsoleArea = {
  label: 'Account',
  path: '/account',
  anyOf: [],
  description: 'your profile, your browser sessions and your API tokens',
  page: lazy(() => import('./AccountPage')),
};

export default account;
