import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const logging: ConsoleArea = {
  label: 'Logging',
  path: '/logging',
  anyOf: ['logging:view'],
  description: 'log environments, their schemas and records',
  page: lazyPart(() => import('./LoggingPage')),
};

export default logging;
