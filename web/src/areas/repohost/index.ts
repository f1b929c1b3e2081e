import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const integrations: ConsoleArea = {
  label: 'Integrations',
  // Notifications link to `/integrations/repohost/{id}`: repository hosts live below this path.
  path: '/integrations',
  anyOf: ['integrations:view'],
  description: 'repository hosts (GitLab API v4) the gateway acts on',
  page: lazyPart(() => import('./IntegrationsPage')),
};

export default integrations;
