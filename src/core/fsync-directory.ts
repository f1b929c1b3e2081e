import fs from 'node:fs/promises';

/** Flushes a directory's entries, so a file created or renamed in it survives a crash. */
export async function fsyncDirectory(directory: string): Promise<void> {
  const handle = await fs.open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
