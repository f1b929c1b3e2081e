/**
 * What the browser remembers of the uploads it started (in localStorage, so a reload or a crash
 * of the tab forgets nothing): which session, and which local file fed it. The gateway knows how
 * far each session came; the browser knows which file to continue with, and checks that the user
 * picked the same one again.
 */
export interface FileIdentity {
  name: string;
  size: number;
  lastModified: number;
}

export interface RememberedUpload {
  uploadId: string;
  nodeId: string;
  path: string;
  file: FileIdentity;
}

const KEY = 'infragate.resumable-uploads';

/** Where the memory lives: `window.localStorage` in the console, a stand-in in tests. */
export type UploadStore = Pick<Storage, 'getItem' | 'setItem'>;

function isRemembered(value: unknown): value is RememberedUpload {
  const entry = value as RememberedUpload | null;
  return (
    typeof entry?.uploadId === 'string' &&
    typeof entry.nodeId === 'string' &&
    typeof entry.path === 'string' &&
    typeof entry.file?.name === 'string' &&
    typeof entry.file.size === 'number' &&
    typeof entry.file.lastModified === 'number'
  );
}

function readAll(store: UploadStore): RememberedUpload[] {
  try {
    const parsed: unknown = JSON.parse(store.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isRemembered) : [];
  } catch {
    // Something else wrote the key: start over rather than fail the page.
    return [];
  }
}

export function identify(file: FileIdentity): FileIdentity {
  return { name: file.name, size: file.size, lastModified: file.lastModified };
}

export function rememberUpload(store: UploadStore, entry: RememberedUpload): void {
  const others = readAll(store).filter((known) => known.uploadId !== entry.uploadId);
  store.setItem(KEY, JSON.stringify([...others, entry]));
}

export function forgetUpload(store: UploadStore, uploadId: string): void {
  store.setItem(KEY, JSON.stringify(readAll(store).filter((known) => known.uploadId !== uploadId)));
}

export function rememberedUpload(store: UploadStore, uploadId: string): RememberedUpload | undefined {
  return readAll(store).find((known) => known.uploadId === uploadId);
}

/**
 * Why `file` cannot continue an upload, or undefined when it can: the remembered file's name, size
 * and modification time must match; without a memory (another browser) the size must.
 */
export function mismatch(
  file: FileIdentity,
  upload: { totalBytes: number },
  remembered: RememberedUpload | undefined,
): string | undefined {
  if (file.size !== upload.totalBytes)
    return `${file.name} has ${file.size} bytes; this upload is of a file of ${upload.totalBytes} bytes.`;
  if (!remembered) return undefined;
  const { name, lastModified } = remembered.file;
  if (file.name !== name || file.lastModified !== lastModified)
    return `This upload started with ${name} as it was on ${new Date(lastModified).toLocaleString()}; pick that file, unchanged.`;
  return undefined;
}
