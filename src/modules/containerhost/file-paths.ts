import path from 'node:path/posix';
import { invalidField } from '../../core/errors.js';

// Paths of the file operations, confined to the root they name (a container's or a volume's): `..`
// segments are refused rather than resolved, and the result is normalised (`a//b/./c` → `/a/b/c`). NUL
// never gets here: the gateway's input guard (core/input-guard.ts) refuses it in every request.

/**
 * A path inside a container: absolute, normalised, `/` for the root. Symbolic links inside the
 * container are resolved by the engine within the container's root, never outside it.
 */
export function containerPath(raw: string, field = 'path'): string {
  if (!raw.startsWith('/')) throw invalidField([field], 'must be an absolute path');
  return confined(raw, field);
}

/** A path inside a volume: a leading `/` is optional; answered absolute from the volume root. */
export function volumePath(raw: string, field = 'path'): string {
  return confined(`/${raw}`, field);
}

/** Refuses the root and paths that end in `/`, for operations that need a file's name. */
export function namingFile(raw: string, normalised: string, field = 'path'): string {
  if (normalised === '/') throw invalidField([field], 'must name a file below the root');
  if (raw.endsWith('/')) throw invalidField([field], 'must name a file, not a directory');
  return normalised;
}

/** Refuses the root, for operations that cannot apply to it (deleting, creating). */
export function belowRoot(normalised: string, field = 'path'): string {
  if (normalised === '/') throw invalidField([field], 'must name something below the root');
  return normalised;
}

function confined(raw: string, field: string): string {
  if (raw.split(/[\\/]/).includes('..')) throw invalidField([field], 'must not contain .. segments');
  const normalised = path.normalize(raw).replace(/\/+$/, '');
  return normalised === '' || normalised === '.' ? '/' : normalised;
}
