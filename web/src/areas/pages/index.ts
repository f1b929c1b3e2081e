import { lazy } from 'react';
import type { ConsoleArea } from '../area';

const pages: ConsoleArea = {
  label: 'Pages',
  path: '/pages',
  anyOf: ['pages:view'],
  description: 'static sites: projects, deployments, custom domains and deploy tokens',
  page: lazy(() => import('./PagesPage')),
};

export default pages;
