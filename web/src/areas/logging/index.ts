import { lazy } from 'react';
import type { ConsoleArea } from '../area';

const logging: ConsoleArea = {
  label: 'Logging',
  path: '/logging',
  anyOf: ['logging:view'],
  description: 'log environments, their schemas and records',
  page: lazy(() => import('./LoggingPage')),
};

export default logging;
