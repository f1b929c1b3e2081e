/**
 * A minimal POSIX tar writer for the engine's archive API: directories and one regular file, with a
 * PAX header for names longer than the ustar fields hold.
 */
export interface TarEntry {
  /** Relative path inside the archive (no leading slash). */
  name: string;
  type: 'file' | 'directory';
  content?: Buffer;
  mode?: number;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, typeflag: string, mode: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(mode, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(Date.now() / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(typeflag, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

function padded(data: Buffer): Buffer[] {
  const rest = data.length % BLOCK;
  return rest === 0 ? [data] : [data, Buffer.alloc(BLOCK - rest)];
}

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  return `${length}${body}`;
}

export function buildTar(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const name = entry.type === 'directory' ? `${entry.name}/` : entry.name;
    const content = entry.content ?? Buffer.alloc(0);
    const mode = entry.mode ?? (entry.type === 'directory' ? 0o755 : 0o644);
    let shortName = name;
    if (Buffer.byteLength(name) > 99) {
      const pax = Buffer.from(paxRecord('path', name), 'utf8');
      parts.push(header('PaxHeader', pax.length, 'x', 0o644), ...padded(pax));
      shortName = name.slice(-90).replace(/^[^/]*\//, '');
    }
    parts.push(
      header(shortName, entry.type === 'file' ? content.length : 0, entry.type === 'file' ? '0' : '5', mode),
    );
    if (entry.type === 'file' && content.length > 0) parts.push(...padded(content));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
