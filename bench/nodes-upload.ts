/**
 * Upload throughput through the gateway (session + chunked PUTs, fsync per chunk, atomic rename)
 * against a raw node:http server that pipes the same body to disk and fsyncs once, in one run, on
 * loopback. Each server runs in its own child process so its peak RSS (VmHWM) is its own.
 *
 *   npx tsx bench/nodes-upload.ts            # 1 GiB if the disk has room, else smaller
 *   BENCH_BYTES=268435456 npx tsx bench/nodes-upload.ts
 *
 * Files live in .bench-tmp/ and are deleted at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MIB = 1024 * 1024;
const here = path.dirname(fileURLToPath(import.meta.url));
const projectDir = path.resolve(here, '..');
const workDir = path.join(projectDir, '.bench-tmp', `nodes-upload-${process.pid}`);
const CHUNK = Number(process.env.BENCH_CHUNK_BYTES ?? 64 * MIB);

// ---------------------------------------------------------------------------------------------
// Child: the raw baseline server.
async function serveRaw(dir: string): Promise<void> {
  let n = 0;
  const server = http.createServer((request, response) => {
    const file = path.join(dir, `raw-${++n}.bin`);
    const out = fs.createWriteStream(file);
    request.pipe(out);
    out.on('finish', () => {
      const fd = fs.openSync(file, 'r');
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ bytes: out.bytesWritten }));
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ port })}\n`);
  });
}

// Child: the gateway, on an in-memory PGlite, with one node rooted in `dir`.
async function serveGateway(dir: string): Promise<void> {
  const { nodes } = await import('../src/db/schema/index.js');
  const { startBenchGateway } = await import('./support/gateway.js');
  const { app, database, token } = await startBenchGateway({
    config: { uploadChunkBytes: CHUNK, uploadMaxChunkBytes: Math.max(CHUNK, 64 * MIB) },
  });
  const root = path.join(dir, 'root');
  fs.mkdirSync(root, { recursive: true });
  const [node] = await database.db.insert(nodes).values({ name: 'bench', rootPath: root }).returning();
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(
    `${JSON.stringify({ port: Number(new URL(address).port), token, nodeId: node!.id, root })}\n`,
  );
}

// ---------------------------------------------------------------------------------------------
// Parent.
interface Started {
  child: ChildProcess;
  info: { port: number; token?: string; nodeId?: string; root?: string };
}

function startChild(mode: string): Promise<Started> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'nodes-upload.ts'), mode, workDir],
    {
      cwd: projectDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (data) => {
      buffered += data;
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n') && line) resolve({ child, info: JSON.parse(line) });
    });
    child.once('exit', (code) => reject(new Error(`${mode} exited with ${code}`)));
  });
}

function memory(pid: number): { rssMiB: number; peakMiB: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

const agent = new http.Agent({ keepAlive: true });

function send(
  port: number,
  method: string,
  route: string,
  headers: Record<string, string>,
  body?: { file: string; start: number; end: number } | string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path: route, headers, agent },
      (response) => {
        let text = '';
        response.on('data', (data) => {
          text += data;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode!, json: text ? JSON.parse(text) : {} }),
        );
      },
    );
    request.on('error', reject);
    if (body === undefined) request.end();
    else if (typeof body === 'string') request.end(body);
    else
      fs.createReadStream(body.file, { start: body.start, end: body.end - 1, highWaterMark: MIB }).pipe(
        request,
      );
  });
}

async function rawRun(server: Started, file: string, size: number) {
  const started = process.hrtime.bigint();
  const answer = await send(
    server.info.port,
    'PUT',
    '/upload',
    { 'content-type': 'application/octet-stream', 'content-length': String(size) },
    { file, start: 0, end: size },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (answer.json.bytes !== size) throw new Error(`raw server wrote ${answer.json.bytes} bytes`);
  for (const name of fs.readdirSync(workDir))
    if (name.startsWith('raw-')) fs.rmSync(path.join(workDir, name));
  return seconds;
}

async function gatewayRun(server: Started, file: string, size: number, digest: string | undefined) {
  const { port, token, nodeId, root } = server.info;
  const auth = { authorization: `Bearer ${token}` };
  const started = process.hrtime.bigint();
  const created = await send(
    port,
    'POST',
    `/api/nodes/${nodeId}/files/uploads`,
    { ...auth, 'content-type': 'application/json' },
    JSON.stringify({ path: 'bench/upload.bin', totalBytes: size, sha256: digest }),
  );
  if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.json)}`);
  const { uploadId } = created.json.data as { uploadId: string };
  let offset = 0;
  let status = 'open';
  let chunks = 0;
  while (offset < size) {
    const end = Math.min(offset + CHUNK, size);
    const answer = await send(
      port,
      'PUT',
      `/api/nodes/${nodeId}/files/uploads/${uploadId}/chunks?offset=${offset}`,
      { ...auth, 'content-type': 'application/octet-stream', 'content-length': String(end - offset) },
      { file, start: offset, end },
    );
    if (answer.status !== 200) throw new Error(`chunk at ${offset}: ${JSON.stringify(answer.json)}`);
    const data = answer.json.data as { receivedBytes: number; status: string };
    offset = data.receivedBytes;
    status = data.status;
    chunks += 1;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (status !== 'complete') throw new Error(`upload ended ${status}`);
  const placed = fs.statSync(path.join(root!, 'bench/upload.bin')).size;
  if (placed !== size) throw new Error(`placed file has ${placed} bytes`);
  fs.rmSync(path.join(root!, 'bench/upload.bin'));
  return { seconds, chunks };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const [mode, dir] = process.argv.slice(2);
  if (mode === '--serve-raw') return serveRaw(dir!);
  if (mode === '--serve-gateway') return serveGateway(dir!);

  fs.mkdirSync(workDir, { recursive: true });
  const stats = fs.statfsSync(workDir);
  const free = stats.bavail * stats.bsize;
  // Source file + one destination at a time, with a wide margin.
  let size = Number(process.env.BENCH_BYTES ?? 1024 * MIB);
  if (free < size * 4) size = Math.max(64 * MIB, Math.floor(free / 8 / MIB) * MIB);
  const file = path.join(workDir, 'source.bin');
  try {
    process.stderr.write(
      `writing a ${size / MIB} MiB random file (free: ${(free / 1024 ** 3).toFixed(1)} GiB)…\n`,
    );
    const hash = crypto.createHash('sha256');
    const fd = fs.openSync(file, 'w');
    for (let written = 0; written < size; ) {
      const block = crypto.randomBytes(Math.min(16 * MIB, size - written));
      fs.writeSync(fd, block);
      hash.update(block);
      written += block.length;
    }
    fs.closeSync(fd);
    const digest = hash.digest('hex');

    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    const rawServer = await startChild('--serve-raw');
    const gatewayServer = await startChild('--serve-gateway');
    const rawStart = memory(rawServer.child.pid!);
    const gatewayStart = memory(gatewayServer.child.pid!);
    const times = { raw: [] as number[], gateway: [] as number[], verified: [] as number[] };
    let chunks = 0;
    // Alternating rounds: the machine is shared, so each variant meets the same background load.
    for (let round = 0; round < rounds; round++) {
      times.raw.push(await rawRun(rawServer, file, size));
      const plain = await gatewayRun(gatewayServer, file, size, undefined);
      times.gateway.push(plain.seconds);
      chunks = plain.chunks;
      times.verified.push((await gatewayRun(gatewayServer, file, size, digest)).seconds);
    }
    const rawEnd = memory(rawServer.child.pid!);
    const gatewayEnd = memory(gatewayServer.child.pid!);
    rawServer.child.kill();
    gatewayServer.child.kill();

    const mibps = (seconds: number) => size / MIB / seconds;
    const rawMedian = median(times.raw);
    const rows = [
      ['raw node:http → disk (1 PUT, fsync at end)', times.raw, rawStart, rawEnd],
      [
        `gateway, ${chunks} chunks of ${CHUNK / MIB} MiB, fsync each`,
        times.gateway,
        gatewayStart,
        gatewayEnd,
      ],
      ['gateway, same + sha256 verified at completion', times.verified, gatewayStart, gatewayEnd],
    ] as const;
    console.log(
      `\nupload of ${size / MIB} MiB over loopback, ${rounds} alternating rounds, Node ${process.version}`,
    );
    console.log(
      '| run | seconds per round | median MiB/s | median vs raw | server RSS before → peak (MiB) |',
    );
    console.log('|---|---|---|---|---|');
    for (const [name, seconds, start, end] of rows) {
      const m = median(seconds);
      console.log(
        `| ${name} | ${seconds.map((value) => value.toFixed(2)).join(' / ')} | ${mibps(m).toFixed(0)} | ` +
          `${((rawMedian / m) * 100).toFixed(0)} % | ${start.rssMiB.toFixed(0)} → ${end.peakMiB.toFixed(0)} |`,
      );
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
    agent.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  fs.rmSync(workDir, { recursive: true, force: true });
  process.exit(1);
});
