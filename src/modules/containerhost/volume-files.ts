import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { type FileRead, listDirectory, prepareFileWrite, readFile, writeArchive } from './archive.js';
import type { EngineNodeService } from './engine-nodes.js';
import { namingFile, volumePath } from './file-paths.js';
import type { HelperContainers } from './helper-containers.js';
import type { DirectoryListing } from './schemas/files.js';

/** A file to write: where in the volume, and its bytes. */
export interface VolumeFile {
  path: string;
  content: Buffer;
}

/** Browses, reads and writes a node's volumes through helper containers and the archive API. */
export class VolumeFileService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit'> & {
      engineNodes: EngineNodeService;
      helpers: HelperContainers;
    },
  ) {}

  /** Writes one file (creating missing parent directories) into a volume. */
  async write(actor: AuditActor, nodeId: string, volumeName: string, file: VolumeFile): Promise<void> {
    const path = namingFile(file.path, volumePath(file.path));
    const helper = await this.helper(nodeId, volumeName, 'volume-write');
    try {
      const { parents, permissions } = await prepareFileWrite(helper.target, path);
      await writeArchive(helper.target, {
        directories: parents,
        file: { path, content: file.content, permissions },
      });
    } finally {
      await helper.remove();
    }
    await this.deps.audit.recordAlone(this.deps.db, actor, {
      action: 'containerhost.volume.file_written',
      targetType: 'containerhost_volume',
      targetId: volumeName,
      metadata: { nodeId, path, bytes: file.content.length },
    });
  }

  async list(nodeId: string, volumeName: string, rawPath: string): Promise<DirectoryListing> {
    const path = volumePath(rawPath);
    const helper = await this.helper(nodeId, volumeName, 'volume-browse');
    try {
      return await listDirectory(helper.target, path);
    } finally {
      await helper.remove();
    }
  }

  /** Opens a file of a volume; the helper container lives until the download ends or the client leaves. */
  async read(nodeId: string, volumeName: string, rawPath: string, signal: AbortSignal): Promise<FileRead> {
    const path = namingFile(rawPath, volumePath(rawPath));
    const helper = await this.helper(nodeId, volumeName, 'volume-read');
    try {
      const file = await readFile(helper.target, path, signal);
      file.stream.once('close', () => void helper.remove());
      return file;
    } catch (error) {
      await helper.remove();
      throw error;
    }
  }

  private async helper(nodeId: string, volumeName: string, purpose: string) {
    const { node, engine } = await this.deps.engineNodes.engine(nodeId);
    return this.deps.helpers.open(engine, node, volumeName, purpose);
  }
}
