import { lazyPart } from '../../shell/reload-on-failed-load';
import type { ConsoleArea } from '../area';

const certificates: ConsoleArea = {
  label: 'Certificates',
  path: '/certificates',
  anyOf: ['certificates:view'],
  description: 'SSL certificates, uploaded or ordered with ACME, and their expiry',
  page: lazyPart(() => import('./CertificatesPage')),
};

export default certificates;
