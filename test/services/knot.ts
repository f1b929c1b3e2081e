import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../support/eventually.js';
import { findBinary, freePort } from './peers.js';

/** Knot DNS (Debian `knot`): an authoritative server that takes RFC 2136 updates signed with TSIG. */
export const knotBinary = () => findBinary('knotd', ['/usr/sbin/knotd']);

export interface KnotServer {
  port: number;
  zone: string;
  tsigKeyName: string;
  tsigAlgorithm: 'hmac-sha256';
  tsigSecret: string;
  /** The TXT values at `name` as the server answers them now (a plain UDP query). */
  txt(name: string): Promise<string[]>;
  stop(): Promise<void>;
}

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.');
  return Buffer.concat([
    ...labels.map((label) => Buffer.from([label.length, ...Buffer.from(label)])),
    Buffer.from([0]),
  ]);
}

function skipName(message: Buffer, offset: number): number {
  for (;;) {
    const length = message[offset]!;
    if (length === 0) return offset + 1;
    if ((length & 0xc0) === 0xc0) return offset + 2;
    offset += length + 1;
  }
}

/** Asks the server for TXT records over UDP and reads the answer section (test-side check only). */
function queryTxt(port: number, name: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    const id = crypto.randomInt(0, 65_536);
    const header = Buffer.from([id >> 8, id & 255, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    const query = Buffer.concat([header, encodeName(name), Buffer.from([0, 16, 0, 1])]);
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('no DNS answer'));
    }, 2000);
    socket.on('message', (message) => {
      clearTimeout(timer);
      socket.close();
      const answers = message.readUInt16BE(6);
      let offset = skipName(message, 12) + 4;
      const values: string[] = [];
      for (let index = 0; index < answers; index++) {
        offset = skipName(message, offset);
        const type = message.readUInt16BE(offset);
        const length = message.readUInt16BE(offset + 8);
        const data = message.subarray(offset + 10, offset + 10 + length);
        offset += 10 + length;
        if (type !== 16) continue;
        let text = '';
        for (let at = 0; at < data.length; at += 1 + data[at]!)
          text += data.subarray(at + 1, at + 1 + data[at]!).toString();
        values.push(text);
      }
      resolve(values);
    });
    socket.send(query, port, '127.0.0.1');
  });
}

/**
 * Starts knotd on a free loopback port, authoritative for `zone` (every name in it answers A
 * 127.0.0.1, so HTTP-01 validation reaches the gateway), accepting updates signed with a fresh TSIG key.
 */
export async function startKnot(zone = 'example.test'): Promise<KnotServer> {
  const binary = knotBinary().path;
  if (!binary) throw new Error('knotd not found');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-knot-'));
  const port = await freePort();
  const tsigSecret = crypto.randomBytes(32).toString('base64');
  const tsigKeyName = 'infragate-test-key';
  fs.writeFileSync(
    path.join(dir, `${zone}.zone`),
    [
      `$ORIGIN ${zone}.`,
      '$TTL 60',
      `@ SOA ns.${zone}. hostmaster.${zone}. 1 3600 600 86400 60`,
      '@ NS ns',
      '@ A 127.0.0.1',
      '* A 127.0.0.1',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'knot.conf'),
    [
      'server:',
      `  listen: 127.0.0.1@${port}`,
      `  rundir: ${dir}`,
      'database:',
      `  storage: ${dir}`,
      'log:',
      '  - target: stderr',
      '    any: warning',
      'key:',
      `  - id: ${tsigKeyName}`,
      '    algorithm: hmac-sha256',
      `    secret: ${tsigSecret}`,
      'acl:',
      '  - id: acme-updates',
      `    key: ${tsigKeyName}`,
      '    action: update',
      'template:',
      '  - id: default',
      `    storage: ${dir}`,
      '    zonefile-sync: -1',
      'zone:',
      `  - domain: ${zone}`,
      '    acl: acme-updates',
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-c', path.join(dir, 'knot.conf'), '-s', path.join(dir, 'knot.sock')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(async () => (await queryTxt(port, `nothing.${zone}`)) !== undefined, `knotd (${stderr})`);
  return {
    port,
    zone,
    tsigKeyName,
    tsigAlgorithm: 'hmac-sha256',
    tsigSecret,
    txt: (name) => queryTxt(port, name),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
