import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { CallAnswer } from '../api-client.js';
import type { ApiContext } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { Progress } from '../progress.js';
import { meter } from '../upload/meter.js';

/**
 * `pages deploy <dir|archive>`: a directory is packed into a tar.gz first (its files and symbolic
 * links, names relative to the directory); an archive file is sent as it is. The upload shows a
 * progress bar on stderr.
 */

/** The files and links under `dir`, relative and sorted, so the same tree packs the same way. */
async function walk(dir: string, prefix = ''): Promise<string[]> {
  const entries = (await fsp.readdir(path.join(dir, prefix), { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const found: string[] = [];
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await walk(dir, relative)));
    else if (entry.isFile() || entry.isSymbolicLink()) found.push(relative);
    else throw new CliError(`${path.join(dir, relative)} is neither a file, a directory nor a symbolic link`);
  }
  return found;
}

/** Packs `dir` into a gzipped tar at `into`; answers the number of entries. */
async function packDirectory(dir: string, into: string): Promise<number> {
  const names = await walk(dir);
  if (names.length === 0) throw new CliError(`${dir} holds no files`);
  const pack = tar.pack();
  const written = pipeline(pack, zlib.createGzip(), fs.createWriteStream(into, { mode: 0o600 }));
  for (const name of names) {
    const full = path.join(dir, name);
    const stat = await fsp.lstat(full);
    if (stat.isSymbolicLink()) {
      pack.entry({
        name,
        type: 'symlink',
        linkname: await fsp.readlink(full),
        mode: 0o777,
        mtime: stat.mtime,
      });
      continue;
    }
    await new Promise<void>((resolve, reject) => {
      const entry = pack.entry(
        { name, type: 'file', size: stat.size, mode: stat.mode & 0o777, mtime: stat.mtime },
        (error) => (error ? reject(error) : resolve()),
      );
      fs.createReadStream(full).on('error', reject).pipe(entry);
    });
  }
  pack.finalize();
  await written;
  return names.length;
}

/** What a deploy needs to know of its project: where to upload, and how to name and link the site. */
export type DeployProject = Pick<CallAnswer<'/api/pages/{projectId}', 'GET'>['data'], 'id' | 'slug' | 'url'>;

const DEPLOYMENTS = '/api/pages/{projectId}/deployments';

/** Uploads `source` (a directory or an archive) as a new deployment of `project`. */
export async function deploy(context: ApiContext, project: DeployProject, source: string): Promise<void> {
  const stat = await fsp.stat(source).catch(() => {
    throw new CliError(`${source} does not exist`);
  });
  let archive = source;
  let staging: string | undefined;
  if (stat.isDirectory()) {
    staging = await fsp.mkdtemp(path.join(os.tmpdir(), 'infragate-deploy-'));
    archive = path.join(staging, 'site.tar.gz');
    const count = await packDirectory(source, archive);
    process.stderr.write(`packed ${count} files from ${source}\n`);
  } else if (!stat.isFile()) throw new CliError(`${source} is neither a directory nor an archive file`);
  try {
    const size = (await fsp.stat(archive)).size;
    const progress = new Progress(size, 0);
    let deployment: CallAnswer<typeof DEPLOYMENTS, 'POST'>['data'];
    try {
      ({ data: deployment } = await context.api.call('POST', DEPLOYMENTS, {
        path: { projectId: project.id },
        query: {
          promote: context.opts.promote,
          stripComponents: context.opts.stripComponents,
        },
        body: fs.createReadStream(archive).pipe(meter((sent) => progress.set(sent), undefined)),
        length: size,
        contentType: staging ? 'application/gzip' : 'application/octet-stream',
      }));
    } finally {
      progress.finish();
    }
    // The API answers both relative to the gateway unless a pages base domain is set.
    const absolute = (url: string) => new URL(url, `${context.api.baseUrl}/`).toString();
    const siteUrl = absolute(project.url);
    const previewUrl = absolute(deployment.previewUrl);
    context.out.done(
      { ...deployment, siteUrl, previewUrl },
      `deployed ${deployment.id} to ${project.slug}: ${deployment.fileCount} files, ${deployment.sizeBytes} bytes` +
        `${deployment.production ? ', now in production' : ', not promoted (the site shows what it showed before)'}\n` +
        `site:    ${siteUrl}\npreview: ${previewUrl}`,
    );
  } finally {
    if (staging) await fsp.rm(staging, { recursive: true, force: true });
  }
}
