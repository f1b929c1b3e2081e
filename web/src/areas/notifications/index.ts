import { lazy } from 'react';
import type { ConsoleArea } from '../area';

const notifications: ConsoleArea = {
  label: 'Notifications',
  path: '/notifications',
  anyOf: ['notifications:view'],
  description: 'channels, alert rules and the deliveries they make',
  page: lazy(() => import('./NotificationsPage')),
};

export default notifications;
