import type { AccessRule } from '../../auth/access';
import { lazyPart, type Part } from '../../shell/reload-on-failed-load';

/** One block of "what needs attention"; shown to users holding one of its scopes. */
export interface OverviewSection extends AccessRule {
  id: string;
  Section: Part;
  /** Takes the whole width (a table of several columns) instead of half of it. */
  wide?: boolean;
}

/** The overview's sections, in the order shown. A new kind of attention is one more entry here and one component in this folder. */
export const overviewSections: readonly OverviewSection[] = [
  { id: 'alerts', anyOf: ['notifications:view'], Section: lazyPart(() => import('./OpenAlerts')) },
  {
    id: 'container-health',
    anyOf: ['containerhost:view'],
    Section: lazyPart(() => import('./ContainerHealth')),
  },
  { id: 'siem', anyOf: ['audit:view'], Section: lazyPart(() => import('./SiemAttention')) },
  {
    id: 'certificates',
    anyOf: ['certificates:view'],
    Section: lazyPart(() => import('./ExpiringCertificates')),
  },
  { id: 'audit', anyOf: ['audit:view'], Section: lazyPart(() => import('./RecentAuditEvents')), wide: true },
];
