import zlib from 'node:zlib';
import tar from 'tar-stream';

/** One entry of a test archive: a file (content), a directory, or a link (target). */
export interface TestEntry {
  name: string;
  content?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'fifo';
  target?: string;
}

export type Site = Record<string, string | Buffer>;

const asEntries = (site: Site | TestEntry[]): TestEntry[] =>
  Array.isArray(site) ? site : Object.entries(site).map(([name, content]) => ({ name, content }));

/** A tar archive built with tar-stream, entries written exactly as given (even unsafe names). */
export async function tarArchive(site: Site | TestEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const entry of asEntries(site)) {
    const type = entry.type ?? 'file';
    const header: Partial<tar.Header> & { name: string } = {
      name: entry.name,
      type,
      mode: type === 'directory' ? 0o755 : 0o644,
    };
    if (type === 'symlink' || type === 'link') header.linkname = entry.target ?? '';
    if (type === 'file') pack.entry(header, entry.content ?? '');
    else pack.entry(header);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function tarGz(site: Site | TestEntry[]): Promise<Buffer> {
  return zlib.gzipSync(await tarArchive(site));
}

/** A zip archive (stored entries) written by hand, so names and unix modes are exactly as given. */
export function zipArchive(site: Site | TestEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of asEntries(site)) {
    const type = entry.type ?? 'file';
    const name = Buffer.from(
      type === 'directory' && !entry.name.endsWith('/') ? `${entry.name}/` : entry.name,
    );
    const data =
      type === 'symlink'
        ? Buffer.from(entry.target ?? '')
        : Buffer.from(type === 'file' ? (entry.content ?? '') : '');
    const mode = type === 'symlink' ? 0o120777 : type === 'directory' ? 0o40755 : 0o100644;
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
