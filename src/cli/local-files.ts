import fsp from 'node:fs/promises';
import type { ApiContext } from './api-command.js';
import { CliError } from './cli-error.js';
import { readStdinBytesOnce } from './fields.js';

/** Files the CLI sends or receives as they are (uploads into volumes and containers, downloads). */

/** The bytes of a local file, or of standard input for `-`. */
export async function readLocalFile(file: string): Promise<Buffer> {
  if (file === '-') return readStdinBytesOnce();
  return fsp.readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${file}: ${error.code ?? error.message}`);
  });
}

/** A file's bytes as the raw body of a PUT to `?path=…`. */
export interface FileUpload {
  query: { path: string };
  body: Buffer;
  length: number;
}

/**
 * Reads a local file (`-`: standard input), has `send` put it at `path`, and says how much went to
 * `where` (`volume:/path`).
 */
export async function putLocalFile(
  context: ApiContext,
  { file, path, where }: { file: string; path: string; where: string },
  send: (upload: FileUpload) => Promise<unknown>,
): Promise<void> {
  const content = await readLocalFile(file);
  const answer = await send({ query: { path }, body: content, length: content.length });
  context.out.done(answer, `wrote ${content.length} bytes to ${where}`);
}

/** Downloaded bytes into `output`, saying so, or as they are to standard output. */
export async function saveDownload(
  context: ApiContext,
  bytes: Buffer,
  output: string | undefined,
): Promise<void> {
  if (!output) {
    process.stdout.write(bytes);
    return;
  }
  await fsp.writeFile(output, bytes).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot write ${output}: ${error.code ?? error.message}`);
  });
  context.out.done({ file: output, bytes: bytes.length }, `wrote ${output}`);
}
