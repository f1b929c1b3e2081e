/** An image reference taken apart: which registry serves it, and what to ask the engine to pull. */
export interface ImageReference {
  /** The registry as credentials are stored for it: `docker.io`, or `host[:port]` in lower case. */
  registry: string;
  /** The host the registry is reached at (Docker Hub's images come from registry-1.docker.io). */
  host: string;
  /** `fromImage` of the engine's pull: the reference without its tag. */
  fromImage: string;
  /** `tag` of the engine's pull; none when the reference names a digest. */
  tag: string | undefined;
  /** The whole reference, tag made explicit: what the pulled image is inspected by. */
  name: string;
}

export const DOCKER_HUB = 'docker.io';
const DOCKER_HUB_HOSTS = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

// The distribution reference grammar, in short: [registry/]path[:tag][@digest].
/** A registry as stored credentials name it: `host[:port]`. */
export const REGISTRY_PATTERN =
  '^(?:[a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)*|\\[[0-9a-fA-F:]+\\])(?::[0-9]{1,5})?$';
const REGISTRY = new RegExp(REGISTRY_PATTERN);
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-fA-F0-9]{32,}$/;

/** The key credentials are stored under: Docker Hub's host names are one registry. */
export function registryKey(host: string): string {
  const lower = host.toLowerCase();
  return DOCKER_HUB_HOSTS.has(lower) ? DOCKER_HUB : lower;
}

/** Parses an image reference such as `nginx`, `library/nginx:1.27` or `127.0.0.1:5000/team/app@sha256:…`. */
export function parseImageReference(text: string): ImageReference | { error: string } {
  const invalid = {
    error: 'must be an image reference such as nginx:1.27 or registry.example:5000/team/app',
  };
  const [beforeDigest, digest, ...extra] = text.split('@');
  if (extra.length > 0 || !beforeDigest || (digest !== undefined && !DIGEST.test(digest))) return invalid;
  const slash = beforeDigest.indexOf('/');
  const first = slash === -1 ? '' : beforeDigest.slice(0, slash);
  const explicitRegistry =
    first !== '' && (/[.:]/.test(first) || first === 'localhost' || first.startsWith('['));
  if (explicitRegistry && !REGISTRY.test(first)) return invalid;
  const remainder = explicitRegistry ? beforeDigest.slice(slash + 1) : beforeDigest;
  const colon = remainder.lastIndexOf(':');
  const path = colon === -1 ? remainder : remainder.slice(0, colon);
  const tag = colon === -1 ? undefined : remainder.slice(colon + 1);
  if (!path.split('/').every((component) => PATH_COMPONENT.test(component))) return invalid;
  if (tag !== undefined && !TAG.test(tag)) return invalid;
  const registry = registryKey(explicitRegistry ? first : DOCKER_HUB);
  const repository = explicitRegistry ? `${first}/${path}` : path;
  const fromImage = digest ? `${repository}@${digest}` : repository;
  const pullTag = digest ? undefined : (tag ?? 'latest');
  return {
    registry,
    host: registry === DOCKER_HUB ? 'registry-1.docker.io' : hostOf(registry),
    fromImage,
    tag: pullTag,
    name: pullTag ? `${fromImage}:${pullTag}` : fromImage,
  };
}

/** `host:port` → `host`, `[::1]:5000` → `::1`. */
function hostOf(registry: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(registry);
  if (bracketed) return bracketed[1]!;
  return registry.replace(/:\d+$/, '');
}
