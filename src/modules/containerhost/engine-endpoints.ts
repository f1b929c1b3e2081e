// Where a node's engine listens: the endpoint text an operator registers, taken apart.

/** A node's endpoint, parsed: where its Docker Engine API listens and how to reach it. */
export type Endpoint =
  | { kind: 'unix'; socketPath: string }
  | { kind: 'tcp'; host: string; port: number }
  | { kind: 'ssh'; host: string; port: number; username: string };

export interface EngineCredentials {
  tlsCa?: string | undefined;
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  sshKey?: string | undefined;
}

/** Parses `unix:///path.sock`, `tcp://host:port` or `ssh://user@host[:port]`; undefined when malformed. */
export function parseEndpoint(text: string): Endpoint | { error: string } {
  const unix = /^unix:\/\/(\/[^\0]+)$/.exec(text);
  if (unix) return { kind: 'unix', socketPath: unix[1]! };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: 'must be unix:///path.sock, tcp://host:port or ssh://user@host' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.pathname.replace(/\/$/, '') !== '' || url.search || url.hash)
    return { error: 'must not have a path, query or fragment' };
  if (url.protocol === 'tcp:') {
    if (!host || !url.port) return { error: 'tcp:// endpoints need a host and a port' };
    if (url.username || url.password) return { error: 'tcp:// endpoints take no user' };
    return { kind: 'tcp', host, port: Number(url.port) };
  }
  if (url.protocol === 'ssh:') {
    if (!host || !url.username) return { error: 'ssh:// endpoints need user@host' };
    if (url.password) return { error: 'put the SSH key in sshPrivateKey, not a password in the URL' };
    return {
      kind: 'ssh',
      host,
      port: url.port ? Number(url.port) : 22,
      username: decodeURIComponent(url.username),
    };
  }
  return { error: 'must be unix:///path.sock, tcp://host:port or ssh://user@host' };
}

/** The host name probes use to reach ports the node publishes. */
export function publishedHost(endpoint: Endpoint): string {
  return endpoint.kind === 'unix' ? '127.0.0.1' : endpoint.host;
}
