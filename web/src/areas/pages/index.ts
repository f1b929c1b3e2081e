import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const pages: ConsoleArea = {
  label: 'Pages',
  path: '/pages',
  anyOf: ['pages:view'],
  description: 'static sites: projects, deployments, custom domains and deploy tokens',
  page: lazyPart(() => import('./PagesPage')),
};

export default pages;
