import { lazy } from 'react';
import type { ConsoleArea } from '../area';

const certificates: ConsoleArea = {
  label: 'Certificates',
  path: '/certificates',
  anyOf: ['certificates:view'],
  description: 'SSL certificates, uploaded or ordered with ACME, and their expiry',
  page: lazy(() => import('./CertificatesPage')),
};

export default certificates;
