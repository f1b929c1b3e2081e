import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';
import { overviewSections } from './sections';

const overview: ConsoleArea = {
  label: 'Overview',
  path: '/overview',
  // Whoever may see one of its sections sees the overview.
  anyOf: [...new Set(overviewSections.flatMap((section) => section.anyOf))],
  description: 'what needs attention now',
  page: lazyPart(() => import('./OverviewPage')),
};

export default overview;
