import fs from 'node:fs';
import path from 'node:path';

/**
 * Places on the gateway's host compared by where they really are, symbolic links followed, so a
 * link cannot stand in for a place a rule refuses (the data directory) or allows (a base directory
 * of node roots, an engine socket).
 */

/** Whether `candidate` is `base` or lies below it (both absolute and normalised). */
export function isOnOrUnder(base: string, candidate: string): boolean {
  const prefix = base.endsWith(path.sep) ? base : base + path.sep;
  return candidate === base || candidate.startsWith(prefix);
}

/** As many links as one path may go through, as Linux allows (beyond: a loop). */
const MAX_LINKS = 40;

/**
 * The real path of an absolute path. One that does not exist (yet) is the real path of its deepest
 * existing ancestor with the rest appended, and a link to nothing is followed to where it points:
 * the place the path would reach once something is created there. A few syscalls, taken
 * synchronously: it runs at start-up and once per check, never per byte.
 */
export function realPathOf(target: string, links = 0): string {
  const resolved = path.resolve(target);
  try {
    return fs.realpathSync.native(resolved);
  } catch {
    // It does not exist, or it is (or goes through) a link to nothing: resolved step by step below.
  }
  const parent = path.dirname(resolved);
  if (parent === resolved) return resolved;
  const real = path.join(realPathOf(parent, links), path.basename(resolved));
  let link: string;
  try {
    link = fs.readlinkSync(real);
  } catch {
    return real;
  }
  if (links >= MAX_LINKS) return real;
  return realPathOf(path.resolve(path.dirname(real), link), links + 1);
}
