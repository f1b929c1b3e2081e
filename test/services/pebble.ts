import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import { eventually } from '../support/eventually.js';
import { localhostCertificate } from './openssl-pki.js';
import { findBinary, freePort } from './peers.js';

/** Pebble, Let's Encrypt's RFC 8555 test CA, and its companion DNS server (Debian `pebble`). */
export const pebbleBinary = () => findBinary('pebble', ['/usr/bin/pebble']);
const challtestsrvBinary = () => findBinary('pebble-challtestsrv', ['/usr/bin/pebble-challtestsrv']);

export interface PebbleOptions {
  /** The port Pebble's HTTP-01 validation connects to (the gateway's HTTP listener). */
  httpPort: number;
  /** A DNS server for Pebble's lookups (e.g. Knot); without it pebble-challtestsrv answers. */
  dnsServer?: string;
  /** Lifetime of issued certificates, in seconds (Pebble's default is five years). */
  certificateValiditySeconds?: number;
}

export interface Pebble {
  directoryUrl: string;
  /** The DNS server Pebble asks (`ip:port`): pebble-challtestsrv, or `dnsServer` when given. */
  dnsServer: string;
  /** The CA file that makes Pebble's own HTTPS trusted (INFRAGATE_ACME_CA_FILE). */
  tlsCaFile: string;
  /** Root of the certificates Pebble issues (from its management interface). */
  issuingRootPem(): Promise<string>;
  /** pebble-challtestsrv's management API (only without `dnsServer`). */
  challtestsrv: {
    setTxt(host: string, value: string): Promise<void>;
    addA(host: string, addresses: string[]): Promise<void>;
    /** Back to the default answer (127.0.0.1) for this host. */
    clearA(host: string): Promise<void>;
  };
  stop(): Promise<void>;
}

/** Whether Pebble and pebble-challtestsrv can be started here, and why not. */
export function pebbleAvailable(): { ok: boolean; skipReason?: string } {
  const missing = [pebbleBinary(), challtestsrvBinary()].find((found) => !found.path);
  return missing ? { ok: false, skipReason: missing.skipReason! } : { ok: true };
}

function run(binary: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(binary, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk) => {
    output = `${output}${chunk}`.slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Starts pebble-challtestsrv (as Pebble's DNS, answering every A query with 127.0.0.1 unless told
 * otherwise) and Pebble on free loopback ports, with a fresh TLS certificate for Pebble's own
 * directory. Pebble validates without its random sleeps and rejects no nonces.
 */
export async function startPebble(options: PebbleOptions): Promise<Pebble> {
  const tls = localhostCertificate();
  const [acmePort, managementPort, dnsPort, challtestPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const challtest = options.dnsServer
    ? undefined
    : run(
        challtestsrvBinary().path!,
        [
          '-dns01',
          `127.0.0.1:${dnsPort}`,
          '-http01',
          '',
          '-https01',
          '',
          '-tlsalpn01',
          '',
          '-management',
          `127.0.0.1:${challtestPort}`,
          '-defaultIPv6',
          '',
        ],
        {},
      );
  const config = path.join(tls.dir, 'pebble-config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: tls.cert,
        privateKey: tls.key,
        httpPort: options.httpPort,
        tlsPort: 5001,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
        ...(options.certificateValiditySeconds
          ? { certificateValidityPeriod: options.certificateValiditySeconds }
          : {}),
      },
    }),
  );
  const dnsServer = options.dnsServer ?? `127.0.0.1:${dnsPort}`;
  const pebble = run(pebbleBinary().path!, ['-config', config, '-dnsserver', dnsServer], {
    PEBBLE_VA_NOSLEEP: '1',
    PEBBLE_WFE_NONCEREJECT: '0',
    PEBBLE_AUTHZREUSE: '0',
  });
  const agent = new Agent({ connect: { ca: fs.readFileSync(tls.ca, 'utf8') } });
  const directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
  await eventually(
    async () => (await fetch(directoryUrl, { dispatcher: agent })).ok,
    `pebble (${pebble.output()})`,
  );
  const management = `http://127.0.0.1:${challtestPort}`;
  if (challtest)
    await eventually(async () => (await fetch(`${management}/`)).status > 0, 'pebble-challtestsrv');
  const manage = async (route: string, body: unknown) => {
    const response = await fetch(`${management}${route}`, { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`challtestsrv ${route}: ${response.status}`);
  };
  return {
    directoryUrl,
    dnsServer,
    tlsCaFile: tls.ca,
    async issuingRootPem() {
      const response = await fetch(`https://127.0.0.1:${managementPort}/roots/0`, { dispatcher: agent });
      return response.text();
    },
    challtestsrv: {
      setTxt: (host, value) => manage('/set-txt', { host: `${host}.`, value }),
      addA: (host, addresses) => manage('/add-a', { host: `${host}.`, addresses }),
      clearA: (host) => manage('/clear-a', { host: `${host}.` }),
    },
    async stop() {
      await pebble.stop();
      await challtest?.stop();
      await agent.close();
      fs.rmSync(tls.dir, { recursive: true, force: true });
    },
  };
}
