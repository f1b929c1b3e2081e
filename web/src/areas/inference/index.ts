import { lazy } from 'react';
import type { ConsoleArea } from '../area';

const inference: ConsoleArea = {
  label: 'Inference',
  path: '/inference',
  anyOf: ['inference:view'],
  description: 'inference providers and the connections to them',
  page: lazy(() => import('./InferencePage')),
};

export default inference;
