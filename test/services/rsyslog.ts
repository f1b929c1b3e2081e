import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../support/eventually.js';
import { findBinary, freePort } from './peers.js';

export interface RsyslogServer {
  port: number;
  /** Every message rsyslog received, one raw RFC 5424 message per line. */
  messages(): string[];
  stop(): Promise<void>;
}

export function rsyslogBinary() {
  return findBinary('rsyslogd', ['/usr/sbin/rsyslogd']);
}

/**
 * A private rsyslogd in the foreground: imtcp on a free loopback port (octet-counted framing is on by
 * default), every message written raw to a file the test reads.
 */
export async function startRsyslog(): Promise<RsyslogServer> {
  const binary = rsyslogBinary().path;
  if (!binary) throw new Error('rsyslogd not found');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-rsyslog-'));
  const out = path.join(dir, 'messages.log');
  const port = await freePort();
  fs.writeFileSync(
    path.join(dir, 'rsyslog.conf'),
    `global(workDirectory="${dir}" maxMessageSize="256k")
module(load="imtcp")
template(name="raw" type="string" string="%rawmsg%\\n")
ruleset(name="siem") {
  action(type="omfile" file="${out}" template="raw" flushOnTXEnd="on" asyncWriting="off")
}
input(type="imtcp" port="${port}" address="127.0.0.1" ruleset="siem")
`,
  );
  const child: ChildProcess = spawn(
    binary,
    ['-n', '-f', path.join(dir, 'rsyslog.conf'), '-i', path.join(dir, 'rsyslogd.pid')],
    { stdio: 'ignore' },
  );
  await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      }),
    'rsyslogd',
  );
  return {
    port,
    messages: () =>
      fs.existsSync(out)
        ? fs
            .readFileSync(out, 'utf8')
            .split('\n')
            .filter((line) => line.length > 0)
        : [],
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
