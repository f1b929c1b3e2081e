import path from 'node:path/posix';
import type Docker from 'dockerode';
import { pack } from 'tar-stream';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, unprocessable } from '../../core/errors.js';
import type { Engine } from './docker.js';
import type { EngineNodeService } from './engine-nodes.js';

/** A file to write: where in the volume, and its bytes. */
export interface VolumeFile {
  path: string;
  content: Buffer;
}

/** Writes files into a node's volumes. */
export class VolumeFileService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit' | 'config' | 'log'> & { engineNodes: EngineNodeService },
  ) {}

  /** Writes one file into a volume through a short-lived helper container and the archive API. */
  async write(actor: AuditActor, nodeId: string, volumeName: string, file: VolumeFile): Promise<void> {
    const relative = volumeRelativePath(file.path);
    const { content } = file;
    const { node, engine } = await this.deps.engineNodes.engine(nodeId);
    await engine.call({ nodeId, volume: volumeName }, (docker) => docker.getVolume(volumeName).inspect());
    const image = node.helperImage ?? this.deps.config.helperImage;
    const helper = await engine.call({ nodeId, image }, async (docker) => {
      try {
        return await docker.createContainer({
          Image: image,
          Cmd: ['true'],
          Labels: { 'io.infragate.helper': 'volume-write' },
          NetworkDisabled: true,
          HostConfig: { Binds: [`${volumeName}:/volume`], NetworkMode: 'none' },
        });
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404)
          throw unprocessable(
            'HELPER_IMAGE_MISSING',
            `the helper image ${image} is not present on the node; pull it there or set the node's helperImage`,
            { image },
          );
        throw error;
      }
    });
    try {
      const parents = await this.missingParents(engine, helper.id, relative);
      const archive = await tarOf(parents, { name: relative, content });
      await engine.call({ nodeId, volume: volumeName }, (docker: Docker) =>
        docker.getContainer(helper.id).putArchive(archive, { path: '/volume' }),
      );
    } finally {
      await engine
        .call({ nodeId }, (docker) => docker.getContainer(helper.id).remove({ force: true, v: false }))
        .catch((error: unknown) =>
          this.deps.log.warn({ err: error, helper: helper.id }, 'helper container not removed'),
        );
    }
    await this.deps.audit.recordAlone(this.deps.db, actor, {
      action: 'containerhost.volume.file_written',
      targetType: 'containerhost_volume',
      targetId: volumeName,
      metadata: { nodeId, path: `/${relative}`, bytes: content.length },
    });
  }

  /**
   * Tar extraction replaces whatever is in the way (a directory by the file, a file by a directory), so
   * the target and its parents are checked first: the target must not be a directory, existing parents
   * must be real directories (no symlinks out of the volume), and only missing parents are created.
   * Answers those missing parents, outermost first.
   */
  private async missingParents(engine: Engine, helperId: string, relative: string): Promise<string[]> {
    const stat = (inside: string) => pathStat(engine, helperId, `/volume/${inside}`);
    const target = await stat(relative);
    if (target && (target.directory || target.symlink))
      throw unprocessable(
        target.directory ? 'TARGET_IS_DIRECTORY' : 'TARGET_IS_SYMLINK',
        `/${relative} is a ${target.directory ? 'directory' : 'symbolic link'} in the volume; it is left as it is`,
      );
    const segments = relative.split('/');
    const missing: string[] = [];
    for (let depth = segments.length - 1; depth > 0; depth--) {
      const parent = segments.slice(0, depth).join('/');
      const found = await stat(parent);
      if (!found) {
        missing.unshift(parent);
        continue;
      }
      if (!found.directory || found.symlink)
        throw unprocessable(
          'PARENT_NOT_DIRECTORY',
          `/${parent} exists in the volume and is not a directory, so /${relative} cannot be written`,
        );
      break;
    }
    return missing;
  }
}

/**
 * A tar archive of the directories (mode 0755) and then the file (mode 0644) for the engine's archive
 * API; tar-stream writes a PAX header for names too long for the ustar fields.
 */
async function tarOf(directories: string[], file: { name: string; content: Buffer }): Promise<Buffer> {
  const archive = pack();
  for (const name of directories) archive.entry({ name, type: 'directory', mode: 0o755 });
  archive.entry({ name: file.name, mode: 0o644 }, file.content);
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What the archive API says about a path in a container; undefined when nothing is there. */
async function pathStat(
  engine: Engine,
  containerId: string,
  target: string,
): Promise<{ directory: boolean; symlink: boolean } | undefined> {
  return engine.call({ containerId }, async (docker) => {
    let response: import('node:http').IncomingMessage;
    try {
      response = (await docker.getContainer(containerId).infoArchive({ path: target })) as never;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined;
      throw error;
    }
    response.resume();
    const header = response.headers['x-docker-container-path-stat'];
    if (typeof header !== 'string') throw new Error('the engine did not describe the path');
    const { mode } = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { mode: number };
    // Go's os.FileMode: bit 31 is a directory, bit 27 a symbolic link.
    return { directory: Math.floor(mode / 2 ** 31) % 2 === 1, symlink: Math.floor(mode / 2 ** 27) % 2 === 1 };
  });
}

/**
 * Normalises a path inside a volume (leading slash optional); `..` segments are refused. NUL never gets
 * here: the gateway's input guard (core/input-guard.ts) refuses it in the query and the JSON body.
 */
function volumeRelativePath(raw: string): string {
  if (raw.split(/[\\/]/).includes('..')) throw invalidField(['path'], 'must not contain .. segments');
  const normalised = path.normalize(`/${raw}`).replace(/^\/+/, '').replace(/\/+$/, '');
  if (!normalised || normalised === '.') throw invalidField(['path'], 'must name a file inside the volume');
  if (raw.endsWith('/')) throw invalidField(['path'], 'must name a file, not a directory');
  return normalised;
}
