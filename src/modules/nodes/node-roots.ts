import type { Config } from '../../config.js';
import { unprocessable } from '../../core/errors.js';
import { isOnOrUnder, realPathOf } from '../../core/host-paths.js';
import { absoluteRootPath, checkRootDirectory, realRoot } from './node-fs.js';

/**
 * Where node roots may be on the gateway's host, decided on a root's real path (links followed):
 * - never on, inside or above the gateway's data directory, which holds its database and master key
 *   (an upload with `overwrite` could replace them), whoever asks;
 * - with `INFRAGATE_NODE_ROOTS`, only on or under one of its directories.
 * Checked when a root is registered or moved, and again each time uploads use it, so a link
 * swapped since cannot lead them elsewhere.
 */
export class NodeRoots {
  private readonly dataDir: string;
  private readonly allowed: string[] | undefined;

  constructor(config: Pick<Config, 'dataDir' | 'nodeRoots'>) {
    this.dataDir = realPathOf(config.dataDir);
    this.allowed = config.nodeRoots;
  }

  /** A root given by an operator: normalised (400 unless absolute), an allowed writable directory (422). */
  async registered(rootPath: string): Promise<string> {
    const resolved = absoluteRootPath(rootPath);
    await checkRootDirectory(resolved);
    this.check(await realRoot(resolved), resolved);
    return resolved;
  }

  /**
   * The real path of a stored root, for writing under it: 422 when it vanished or no longer is allowed,
   * and for an agent node (no root on this host: its files are the agent's).
   */
  async real(rootPath: string | null): Promise<string> {
    if (rootPath === null)
      throw unprocessable(
        'NODE_IS_AGENT',
        'this node is an agent’s host: uploads into it through its agent are not available in this version',
      );
    const real = await realRoot(rootPath);
    this.check(real, rootPath);
    return real;
  }

  private check(real: string, rootPath: string): void {
    if (isOnOrUnder(this.dataDir, real) || isOnOrUnder(real, this.dataDir))
      throw unprocessable(
        'NODE_ROOT_FORBIDDEN',
        `${rootPath} is on, inside or above the gateway's data directory (INFRAGATE_DATA_DIR), which holds its database and master key: uploads must never reach them`,
        { rootPath },
      );
    if (this.allowed && !this.allowed.some((base) => isOnOrUnder(base, real)))
      throw unprocessable(
        'NODE_ROOT_NOT_ALLOWED',
        `${rootPath} is not on or under a directory INFRAGATE_NODE_ROOTS allows (the operator's list of places for node roots)`,
        { rootPath, allowedRoots: this.allowed },
      );
  }
}
