import https from 'node:https';
import { createRequire } from 'node:module';
import net from 'node:net';
import type Docker from 'dockerode';
import { DockerEngine } from './docker.js';
import type { Endpoint, EngineCredentials } from './engine-endpoints.js';

// The dockerode clients of a node's engine: how each kind of endpoint is connected to.

/** dockerode and its dependencies are loaded when the first node is connected, not at start-up. */
let dockerode: typeof Docker | undefined;
const loadDockerode = () => (dockerode ??= createRequire(import.meta.url)('dockerode') as typeof Docker);

/**
 * Builds the client for a node. It connects lazily, on the first call. A remote engine's client
 * connects to `address`, the one the egress guard checked for the endpoint's host (the caller's
 * check, EngineNodeService, repeated whenever it reuses a client), never to the host name again: a
 * second lookup could answer another address (DNS rebinding).
 */
export function connectEngine(
  nodeId: string,
  endpoint: Endpoint,
  credentials: EngineCredentials,
  timeoutMs: number,
  address: string | undefined,
): DockerEngine {
  const options = clientOptions(endpoint, credentials, timeoutMs, address);
  const { timeout: _socketTimeout, ...streamOptions } = options;
  const DockerClient = loadDockerode();
  return new DockerEngine(
    new DockerClient(options),
    new DockerClient(streamOptions),
    nodeId,
    endpoint,
    timeoutMs,
    address,
  );
}

/** Idle connections of a TLS engine close after this, as with Node's global agent. */
const IDLE_SOCKET_MS = 5000;

function clientOptions(
  endpoint: Endpoint,
  credentials: EngineCredentials,
  timeoutMs: number,
  address: string | undefined,
): Docker.DockerOptions {
  if (endpoint.kind === 'unix') return { socketPath: endpoint.socketPath, timeout: timeoutMs };
  const host = address ?? endpoint.host;
  if (endpoint.kind === 'tcp') {
    const tls = Boolean(credentials.tlsCa || credentials.tlsCert || credentials.tlsKey);
    // Connected to the address, the TLS session still names the host: its certificate is verified
    // against the name (and SNI sent for it), as if the name had been connected to.
    const named = tls && !net.isIP(endpoint.host);
    return {
      host,
      port: endpoint.port,
      protocol: tls ? 'https' : 'http',
      timeout: timeoutMs,
      ...(named
        ? {
            agent: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, servername: endpoint.host }),
          }
        : {}),
      ...(credentials.tlsCa ? { ca: credentials.tlsCa } : {}),
      ...(credentials.tlsCert ? { cert: credentials.tlsCert } : {}),
      ...(credentials.tlsKey ? { key: credentials.tlsKey } : {}),
    };
  }
  return {
    protocol: 'ssh',
    host,
    port: endpoint.port,
    username: endpoint.username,
    timeout: timeoutMs,
    sshOptions: {
      readyTimeout: timeoutMs,
      ...(credentials.sshKey ? { privateKey: credentials.sshKey } : {}),
    },
  } as Docker.DockerOptions;
}
