import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const inference: ConsoleArea = {
  label: 'Inference',
  path: '/inference',
  anyOf: ['inference:view'],
  description: 'inference providers and the connections to them',
  page: lazyPart(() => import('./InferencePage')),
};

export default inference;
