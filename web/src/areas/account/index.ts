import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const account: ConsoleArea = {
  label: 'Account',
  path: '/account',
  anyOf: [],
  description: 'your profile, your browser sessions and your API tokens',
  page: lazyPart(() => import('./AccountPage')),
};

export default account;
