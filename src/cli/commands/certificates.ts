import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { type Flag, fileText, stdinSecret, text, whole } from '../flags.js';
import { saveDownload } from '../local-files.js';
import { type BodyField, crudCommands, recordParams, resource, resourceCommand } from '../resource.js';
import { registerCertificatesAcme } from './certificates-acme.js';

/** SSL certificates (`/api/ssl-certificates`): uploaded from PEM files, the key never read back. */
export const certificates = resource({ noun: 'certificate', list: '/api/ssl-certificates', id: 'id' });

const material = [
  fileText('--cert <file>', 'certificatePem', 'PEM certificate (the leaf)', true),
  fileText('--key <file>', 'privateKeyPem', 'PEM private key', true),
  fileText('--chain <file>', 'chainPem', 'PEM intermediates, issuer of the leaf first'),
  stdinSecret('passphrase-stdin', 'privateKeyPassphrase', 'read the key passphrase from standard input'),
  { flags: '--allow-expired', field: 'allowExpired', description: 'accept an expired certificate' },
  {
    flags: '--allow-not-yet-valid',
    field: 'allowNotYetValid',
    description: 'accept a certificate not valid yet',
  },
] satisfies Flag<BodyField<'/api/ssl-certificates/upload', 'POST'>>[];

export function registerCertificates(program: Command): void {
  const area = program.command('certificates').description('SSL certificates (certificates:view|manage)');
  crudCommands(area, certificates, {
    list: {
      columns: ['name', 'subject', 'notAfter', 'expiresInDays', 'keyType', 'id'],
      filters: [
        text('--q <text>', 'q', 'substring of the name'),
        whole(
          '--expiring-within-days <days>',
          'expiringWithinDays',
          'only those expiring within this many days',
        ),
        text('--sort <field>', 'sort', 'name (default) or notAfter (soonest first)'),
      ],
    },
    create: {
      name: 'upload',
      path: '/upload',
      flags: [text('--name <name>', 'name', 'unique name', true), ...material],
      description: 'upload a certificate with its key (and chain) from PEM files',
    },
    update: {
      name: 'renew',
      method: 'PUT',
      flags: material,
      description: 'replace the certificate, key and chain of a certificate (same checks as upload)',
    },
  });
  apiAction(
    resourceCommand(
      area,
      certificates,
      'download <certificate>',
      'download the certificate and chain (fullchain PEM)',
    ).option('-o, --output <file>', 'write to this file instead of standard output'),
    async (context) => {
      const path = await recordParams(certificates, context, context.args[0]);
      const bytes = await context.api.download('/api/ssl-certificates/{id}/download', { path });
      await saveDownload(context, bytes, context.opts.output);
    },
  );
  registerCertificatesAcme(area, certificates);
}
