import path from 'node:path/posix';
import { invalidField, type ValidationIssue, validationError } from '../../core/errors.js';

// Paths of the file operations, confined to the root they name (a container's or a volume's): `..`
// segments are refused rather than resolved, and the result is normalised (`a//b/./c` → `/a/b/c`). NUL
// never gets here: the gateway's input guard (core/input-guard.ts) refuses it in every request.

/**
 * A path inside a container: absolute, normalised, `/` for the root. Symbolic links inside the
 * container are resolved by the engine within the container's root, never outside it.
 */
export function containerPath(raw: string, field = 'path'): string {
  return containerPaths({ [field]: raw })[field]!;
}

/** Several paths inside a container, by field, each as `containerPath` answers it; one 400 names every bad one. */
export function containerPaths<Field extends string>(raw: Record<Field, string>): Record<Field, string> {
  const fields = Object.keys(raw) as Field[];
  const issues: ValidationIssue[] = fields.flatMap((field) => {
    const problem = problemOf(raw[field]);
    return problem ? [{ path: [field], message: problem }] : [];
  });
  if (issues.length > 0) throw validationError(issues);
  return Object.fromEntries(fields.map((field) => [field, normalise(raw[field])])) as Record<Field, string>;
}

/** A path inside a volume: a leading `/` is optional; answered absolute from the volume root. */
export function volumePath(raw: string, field = 'path'): string {
  return containerPath(`/${raw}`, field);
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

function problemOf(raw: string): string | undefined {
  if (!raw.startsWith('/')) return 'must be an absolute path';
  if (raw.split(/[\\/]/).includes('..')) return 'must not contain .. segments';
  return undefined;
}

function normalise(raw: string): string {
  const normalised = path.normalize(raw).replace(/\/+$/, '');
  return normalised === '' || normalised === '.' ? '/' : normalised;
}
