import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { App } from '../../src/core/app.js';

/** Bytes that do not compress (as an image's), the same in every process that asks. */
function incompressible(size: number): Buffer {
  const blocks: Buffer[] = [];
  for (let index = 0; blocks.length * 32 < size; index++)
    blocks.push(crypto.createHash('sha256').update(String(index)).digest());
  return Buffer.concat(blocks).subarray(0, size);
}

/** A small site: an HTML page, a stylesheet, a script bundle and an image-sized binary. */
export const SITE_FILES: Record<string, Buffer> = {
  'index.html': Buffer.from(
    `<!doctype html><title>bench</title>${'<p>lorem ipsum dolor sit amet</p>'.repeat(60)}`,
  ),
  'assets/style.css': Buffer.from('body{margin:0;font:16px sans-serif}\n'.repeat(150)),
  'assets/app.js': Buffer.from('function f(a,b){return a+b}\n'.repeat(1200)),
  'img/photo.bin': incompressible(64 * 1024),
};

/** The files the pages benches request: small, medium and image-sized. */
export const SITE_TARGETS = ['index.html', 'assets/app.js', 'img/photo.bin'];

/** The site as a gzipped tar archive; with `root`, also written out there as plain files. */
export async function siteArchive(root?: string): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(SITE_FILES)) {
    if (root) {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), content);
    }
    pack.entry({ name }, content);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return zlib.gzipSync(Buffer.concat(chunks));
}

/** Creates the project `slug` through the API and deploys the site to production. */
export async function deploySite(app: App, token: string, slug: string, archive: Buffer): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  const project = await app.inject({
    method: 'POST',
    url: '/api/pages',
    headers,
    payload: { name: slug, slug },
  });
  const deployed = await app.inject({
    method: 'POST',
    url: `/api/pages/${project.json().data.id}/deployments`,
    headers: { ...headers, 'content-type': 'application/gzip' },
    payload: archive,
  });
  if (deployed.statusCode !== 201) throw new Error(`deploy failed: ${deployed.body}`);
}
