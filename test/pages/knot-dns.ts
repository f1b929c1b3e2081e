import { execFile, spawn } from 'node:child_process';
import dns from 'node:dns';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findBinary, freePort } from '../services/peers.js';
import { eventually } from '../support/eventually.js';

const run = promisify(execFile);

/** Knot DNS (Debian `knot`): knotd answers the zone, knotc changes records while it runs. */
export const knotBinaries = () => {
  const knotd = findBinary('knotd', ['/usr/sbin/knotd']);
  const knotc = findBinary('knotc', ['/usr/sbin/knotc']);
  return { knotd: knotd.path, knotc: knotc.path, skipReason: knotd.skipReason ?? knotc.skipReason };
};

export interface KnotZone {
  /** `127.0.0.1:<port>`, for INFRAGATE_PAGES_DNS_SERVERS. */
  server: string;
  zone: string;
  /** Adds a TXT record (`name` is a full name inside the zone). */
  addTxt(name: string, value: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts knotd on a free loopback port, authoritative for `zone`, where every name answers
 * A 127.0.0.1 (so an HTTP check of any name reaches the gateway on loopback). TXT records are added
 * through knotc's zone transactions on the control socket.
 */
export async function startKnotZone(zone = 'example.test'): Promise<KnotZone> {
  const { knotd, knotc } = knotBinaries();
  if (!knotd || !knotc) throw new Error('knotd or knotc not found');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-pages-knot-'));
  const port = await freePort();
  const socket = path.join(dir, 'knot.sock');
  fs.writeFileSync(
    path.join(dir, `${zone}.zone`),
    [
      `$ORIGIN ${zone}.`,
      '$TTL 60',
      `@ SOA ns hostmaster 1 3600 600 86400 60`,
      '@ NS ns',
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
      'control:',
      `  listen: ${socket}`,
      'database:',
      `  storage: ${dir}`,
      'log:',
      '  - target: stderr',
      '    any: warning',
      'zone:',
      `  - domain: ${zone}`,
      `    storage: ${dir}`,
      '    zonefile-sync: -1',
      '',
    ].join('\n'),
  );
  const child = spawn(knotd, ['-c', path.join(dir, 'knot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server = `127.0.0.1:${port}`;
  const resolver = new dns.promises.Resolver({ timeout: 500, tries: 1 });
  resolver.setServers([server]);
  await eventually(
    async () => (await resolver.resolve4(`probe.${zone}`)).includes('127.0.0.1'),
    `knotd (${stderr})`,
  );
  const control = (...args: string[]) => run(knotc, ['-s', socket, ...args]);
  return {
    server,
    zone,
    async addTxt(name, value) {
      await control('zone-begin', zone);
      await control('zone-set', zone, `${name}.`, '60', 'TXT', `"${value}"`);
      await control('zone-commit', zone);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
