import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const audit: ConsoleArea = {
  label: 'Audit',
  path: '/audit',
  anyOf: ['audit:view'],
  description: 'the tamper-evident audit trail and its export to SIEMs',
  page: lazyPart(() => import('./AuditPage')),
};

export default audit;
