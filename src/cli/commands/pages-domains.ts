import type { Command } from 'commander';
import { type Flag, idFlag } from '../flags.js';
import {
  actionCommand,
  createCommand,
  deleteCommand,
  getCommand,
  idOf,
  lsCommand,
  resource,
  updateCommand,
} from '../resource.js';
import { certificates } from './certificates.js';
import { onProject } from './pages-projects.js';

/** A project's custom domains: added, proven (DNS TXT or HTTP token), then served over HTTPS. */
const domains = resource({
  noun: 'domain',
  list: '/api/pages/{projectId}/domains',
  id: 'domainId',
  lookup: { by: 'hostname' },
  ...onProject,
});

const certificateFlag = (description: string): Flag<'certificateId'> =>
  idFlag('--certificate <certificate>', 'certificateId', description, (context, ref) =>
    idOf(certificates, context, ref),
  );

export function registerDomains(area: Command): void {
  const sub = area.command('domains').description("a project's custom domains (--project)");
  lsCommand(sub, domains, {
    columns: ['hostname', 'status', 'verifiedAt', 'certificateId', 'lastError', 'id'],
    description: 'list custom domains',
  });
  getCommand(sub, domains, 'show a domain with how to prove it is yours (host name or id)');
  createCommand(sub, domains, {
    name: 'add',
    args: '<hostname>',
    fromArgs: ([hostname]) => ({ hostname }),
    flags: [certificateFlag('serve it with this uploaded certificate (name or id) instead of an ACME one')],
    description: 'add a domain; the answer says which TXT record or HTTP token proves it is yours',
  });
  actionCommand(sub, domains, {
    name: 'verify',
    path: '/verify',
    query: [
      { flags: '--method <method>', field: 'method', description: 'dns or http (default: DNS, then HTTP)' },
    ],
    description: 'check the proof now; the domain ends verified or failed (with lastError)',
  });
  updateCommand(sub, domains, {
    name: 'set-certificate',
    flags: [
      {
        ...certificateFlag('uploaded certificate (name or id), or none for an ACME one'),
        required: true,
        parse: (ref: string, context) => (ref === 'none' ? null : idOf(certificates, context, ref)),
      },
    ],
    description: 'choose the certificate a domain is served with',
  });
  deleteCommand(sub, domains, { description: 'remove a custom domain' });
}
