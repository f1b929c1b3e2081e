import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { TestGateway } from '../../support/gateway.js';
import type { CaptureTarget, SecretDestinationCase } from './case.js';

/**
 * Engine nodes: the TLS client key and the SSH key serve the engine they were given for, and the
 * registry credentials stored for a node go to its engine with every pull (base64url JSON in
 * `X-Registry-Auth`). Each moves with the node's endpoint; retargeting a node to the capture server
 * must leave all of them behind.
 */
const NODES = '/api/containerhost/nodes';
const OPERATION = 'PATCH /api/containerhost/nodes/{nodeId}';
const REGISTRY = '127.0.0.1:5999';

const pem = (label: string, secret: string) =>
  `-----BEGIN ${label}-----\n${secret}\n-----END ${label}-----\n`;

/** `tcp://host:port` (or `ssh://deploy@host:port`) of a destination given as a URL or `host:port`. */
function endpointAt(destination: string, scheme: 'tcp' | 'ssh'): string {
  const url = new URL(destination.includes('://') ? destination : `http://${destination}`);
  return `${scheme}://${scheme === 'ssh' ? 'deploy@' : ''}${url.hostname}:${url.port || 80}`;
}
const endpointOf = (capture: CaptureTarget, scheme: 'tcp' | 'ssh') =>
  endpointAt(`${capture.host}:${capture.port}`, scheme);

async function createNode(gateway: TestGateway, body: Record<string, unknown>): Promise<string> {
  const result = await gateway.call('POST', NODES, {
    body: { name: `secret-walk-${crypto.randomBytes(4).toString('hex')}`, ...body },
  });
  expect(result.status, result.text).toBe(201);
  return `${NODES}/${result.body.data.id}`;
}

const retargetTo =
  (scheme: 'tcp' | 'ssh'): SecretDestinationCase['retarget'] =>
  (gateway, recordPath, capture) =>
    gateway.call('PATCH', recordPath, { body: { endpoint: endpointOf(capture, scheme) } });

/** Asks the node's engine for its version: the gateway connects to the endpoint with what it holds. */
const readEngine: SecretDestinationCase['use'] = (gateway, recordPath) => gateway.call('GET', recordPath);

const tlsKey = `containerhost-tls-key-${crypto.randomBytes(8).toString('hex')}`;
const sshKey = `containerhost-ssh-key-${crypto.randomBytes(8).toString('hex')}`;
const registryPassword = `containerhost-registry-${crypto.randomBytes(8).toString('hex')}`;

export const cases: SecretDestinationCase[] = [
  {
    operation: OPERATION,
    secret: tlsKey,
    secretField: 'tlsKey',
    create: (gateway, first) =>
      createNode(gateway, {
        endpoint: endpointAt(first, 'tcp'),
        tlsCert: pem('CERTIFICATE', 'Y2xpZW50LWNlcnRpZmljYXRl'),
        tlsKey: pem('PRIVATE KEY', tlsKey),
      }),
    retarget: retargetTo('tcp'),
    use: readEngine,
  },
  {
    operation: OPERATION,
    secret: sshKey,
    secretField: 'sshPrivateKey',
    create: (gateway, first) =>
      createNode(gateway, {
        endpoint: endpointAt(first, 'ssh'),
        sshPrivateKey: pem('OPENSSH PRIVATE KEY', sshKey),
      }),
    retarget: retargetTo('ssh'),
    use: readEngine,
  },
  {
    operation: OPERATION,
    secret: registryPassword,
    secretField: 'registryCredentials',
    async create(gateway, first) {
      const recordPath = await createNode(gateway, { endpoint: endpointAt(first, 'tcp') });
      const saved = await gateway.call('PUT', `${recordPath}/registry-credentials/${REGISTRY}`, {
        body: { username: 'puller', password: registryPassword },
      });
      expect(saved.status, saved.text).toBe(200);
      return recordPath;
    },
    retarget: retargetTo('tcp'),
    use: (gateway, recordPath) =>
      gateway.call('POST', `${recordPath}/images/pull`, { body: { image: `${REGISTRY}/app:1` } }),
  },
];
