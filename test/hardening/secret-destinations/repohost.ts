import crypto from 'node:crypto';
import { startFakeGitlab } from '../../services/fake-gitlab-v4.js';
import type { SecretDestinationCase } from './case.js';

const secret = `glpat-walk${crypto.randomBytes(12).toString('hex')}`;

/**
 * A repository-host connector: its token goes to `baseUrl` in `PRIVATE-TOKEN`, in a re-test and in
 * the PATCH's own test of a new URL. The first host is the GitLab fake, which knows the token (a
 * connector is saved only once its test passes).
 */
export const repositoryHostConnector: SecretDestinationCase = {
  operation: 'PATCH /api/integrations/repohost/connectors/{id}',
  secret,
  secretField: 'token',
  async peer() {
    const gitlab = await startFakeGitlab();
    gitlab.users.push({ id: 1, username: 'walker', name: 'Secret Walker' });
    gitlab.tokens.push({ token: secret, userId: 1, scopes: ['api'], expiresAt: null });
    return { destination: gitlab.url, close: () => gitlab.close() };
  },
  async create(gateway, firstDestination) {
    const result = await gateway.call('POST', '/api/integrations/repohost/connectors', {
      body: { name: `walk-${crypto.randomUUID()}`, baseUrl: firstDestination, token: secret },
    });
    return `/api/integrations/repohost/connectors/${result.body.data.id}`;
  },
  retarget: (gateway, recordPath, capture) =>
    gateway.call('PATCH', recordPath, { body: { baseUrl: capture.httpUrl } }),
  use: (gateway, recordPath) => gateway.call('POST', `${recordPath}/test`),
};
