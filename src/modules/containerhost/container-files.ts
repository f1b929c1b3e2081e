import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { conflict, notFound, unprocessable } from '../../core/errors.js';
import {
  type ArchiveTarget,
  type FileRead,
  listDirectory,
  missingParents,
  prepareFileWrite,
  readFile,
  statPath,
  writeArchive,
} from './archive.js';
import { recordEngineChange } from './engine-audit.js';
import { runTool } from './engine-exec.js';
import type { EngineNodeService } from './engine-nodes.js';
import { stripSlash } from './engine-port.js';
import { belowRoot, containerPath, containerPaths, namingFile } from './file-paths.js';
import type { DirectoryListing, FileMove } from './schemas/files.js';

/**
 * A container's files through the archive API: list, download, upload, create directories — in running
 * and stopped containers alike, with nothing needed inside the container. Deleting and moving are the
 * exceptions: the API can do neither, so they run `rm`/`rmdir`/`mv` (argument arrays, no shell) in the
 * running container.
 */
export class ContainerFileService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'> & { engineNodes: EngineNodeService }) {}

  async list(nodeId: string, containerId: string, rawPath: string): Promise<DirectoryListing> {
    const path = containerPath(rawPath);
    return listDirectory((await this.target(nodeId, containerId)).target, path);
  }

  async read(nodeId: string, containerId: string, rawPath: string, signal: AbortSignal): Promise<FileRead> {
    const path = namingFile(rawPath, containerPath(rawPath));
    return readFile((await this.target(nodeId, containerId)).target, path, signal);
  }

  /** Uploads or replaces one file (a replaced file keeps its permissions; new ones are 0644). */
  async upload(actor: AuditActor, nodeId: string, containerId: string, rawPath: string, content: Buffer) {
    const path = namingFile(rawPath, containerPath(rawPath));
    const { target, name } = await this.target(nodeId, containerId);
    const { parents, permissions, replaces } = await prepareFileWrite(target, path);
    await writeArchive(target, { directories: parents, file: { path, content, permissions } });
    await recordEngineChange(this.deps, actor, 'container', 'file_uploaded', target.containerId, {
      nodeId,
      container: name,
      path,
      bytes: content.length,
      replaced: replaces,
    });
  }

  /** Creates a directory (mode 0755) and any missing parents; 409 when the path exists. */
  async mkdir(actor: AuditActor, nodeId: string, containerId: string, rawPath: string) {
    const path = belowRoot(containerPath(rawPath));
    const { target, name } = await this.target(nodeId, containerId);
    if (await statPath(target, path)) throw conflict('PATH_EXISTS', { path });
    await writeArchive(target, { directories: [...(await missingParents(target, path)), path] });
    await recordEngineChange(this.deps, actor, 'container', 'directory_created', target.containerId, {
      nodeId,
      container: name,
      path,
    });
  }

  /** Deletes a file, a symbolic link, or a directory (one with entries only when `recursive`). */
  async remove(actor: AuditActor, nodeId: string, containerId: string, rawPath: string, recursive: boolean) {
    const path = belowRoot(containerPath(rawPath));
    const { target, name } = await this.target(nodeId, containerId);
    const info = await statPath(target, path);
    if (!info) throw notFound({ nodeId, containerId, path, reason: 'NO_SUCH_PATH' });
    const directory = info.directory && !info.symlink;
    const cmd = !directory
      ? ['rm', '--', path]
      : recursive
        ? ['rm', '-r', '--', path]
        : ['rmdir', '--', path];
    const { exitCode, message } = await runTool(target.engine, target.what, target.containerId, cmd);
    if (exitCode !== 0 && directory && !recursive && /not empty/i.test(message))
      throw conflict('DIRECTORY_NOT_EMPTY', {
        path,
        explanation: 'pass ?recursive=true to delete it with its entries',
      });
    if (exitCode !== 0) throw unprocessable('DELETE_FAILED', message, { exitCode });
    await recordEngineChange(this.deps, actor, 'container', 'file_deleted', target.containerId, {
      nodeId,
      container: name,
      path,
      type: directory ? 'directory' : info.symlink ? 'symlink' : 'file',
      recursive,
    });
  }

  /**
   * `mv fromPath toPath` as an exec (argument array, no shell) in a running container. NUL needs no
   * check here: the gateway's input guard (core/input-guard.ts) refuses it in every request.
   */
  async move(actor: AuditActor, nodeId: string, containerId: string, paths: FileMove) {
    const { fromPath, toPath } = containerPaths(paths);
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const container = await engine.inspectContainer(containerId);
    if (!container.State?.Running)
      throw unprocessable(
        'CONTAINER_NOT_RUNNING',
        `container ${stripSlash(container.Name)} is ${container.State?.Status ?? 'not running'}; files can only be moved in a running container`,
      );
    const { exitCode, message } = await runTool(engine, { nodeId, containerId }, container.Id, [
      'mv',
      fromPath,
      toPath,
    ]);
    if (exitCode !== 0) throw unprocessable('MOVE_FAILED', message, { exitCode });
    await recordEngineChange(this.deps, actor, 'container', 'file_moved', container.Id, {
      nodeId,
      container: stripSlash(container.Name),
      fromPath,
      toPath,
    });
  }

  /** The container (404 when unknown) as an archive target. */
  private async target(
    nodeId: string,
    containerId: string,
  ): Promise<{ target: ArchiveTarget; name: string }> {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const what = { nodeId, containerId };
    const container = await engine.inspectContainer(containerId);
    return {
      target: { engine, containerId: container.Id, root: '', what },
      name: stripSlash(container.Name),
    };
  }
}
