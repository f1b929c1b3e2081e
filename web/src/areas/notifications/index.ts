import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const notifications: ConsoleArea = {
  label: 'Notifications',
  path: '/notifications',
  anyOf: ['notifications:view'],
  description: 'channels, alert rules and the deliveries they make',
  page: lazyPart(() => import('./NotificationsPage')),
};

export default notifications;
