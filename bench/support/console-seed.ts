import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedGitlab, TOKENS } from '../../test/repohost/helpers.js';
import { type FakeGitlab, startFakeGitlab } from '../../test/services/fake-gitlab-v4.js';
import { makeTestPki } from '../../test/services/openssl-pki.js';

type Call = (method: string, url: string, body?: unknown) => Promise<unknown>;

/** What the seeding left behind, to remove when the bench ends. */
export interface ConsoleSeed {
  /** The logging environment, whose records view the bench opens too. */
  loggingEnvironmentId: string;
  close(): Promise<void>;
}

/**
 * One record in every list an area's page opens with, so each page has a first row to wait for:
 * an engine node, a key-value database, a logging environment, a certificate, a pages project, a
 * repository-host connector (on the fake GitLab), a storage node and a notification channel. The
 * audit events list fills itself; the inference catalog needs nothing. Nothing is reached over the
 * network when a page lists these.
 */
export async function seedConsoleLists(api: Call): Promise<ConsoleSeed> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-bench-console-'));
  const pki = makeTestPki();
  let gitlab: FakeGitlab | undefined;
  let loggingEnvironmentId = '';
  try {
    gitlab = await startFakeGitlab();
    seedGitlab(gitlab);
    await api('POST', '/api/containerhost/nodes', {
      name: 'engine-01',
      endpoint: `unix://${path.join(scratch, 'docker.sock')}`,
    });
    await api('POST', '/api/databases', { name: 'cache', type: 'keyvalue', url: 'redis://127.0.0.1:9' });
    const environment = (await api('POST', '/api/logging/environments', { name: 'production-api' })) as {
      data: { id: string };
    };
    loggingEnvironmentId = environment.data.id;
    await api('POST', '/api/ssl-certificates/upload', {
      name: 'shop',
      certificatePem: pki.ecLeaf.certificatePem,
      privateKeyPem: pki.ecLeaf.keyPem,
    });
    await api('POST', '/api/pages', { name: 'Docs', slug: 'docs' });
    await api('POST', '/api/integrations/repohost/connectors', {
      name: 'gitlab',
      baseUrl: gitlab.url,
      token: TOKENS.full,
      allowlist: [{ entryType: 'group', remoteId: '11', fullPath: 'platform' }],
    });
    fs.mkdirSync(path.join(scratch, 'files'));
    await api('POST', '/api/nodes', { name: 'backups', rootPath: path.join(scratch, 'files') });
    await api('POST', '/api/notifications/channels', {
      name: 'ops hook',
      kind: 'webhook',
      url: 'http://127.0.0.1:9/hook',
    });
  } catch (error) {
    await gitlab?.close();
    pki.cleanup();
    throw error;
  }
  return {
    loggingEnvironmentId,
    async close() {
      await gitlab?.close();
      pki.cleanup();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}
