import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openssl } from '../services/openssl-pki.js';

export interface Leaf {
  certificatePem: string;
  privateKeyPem: string;
}

/** A throw-away CA (openssl CLI) that signs server certificates for any set of DNS names. */
export class TestCa {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-sni-'));
  readonly caPem: string;
  private serial = 0;

  constructor() {
    this.run(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=infragate SNI test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
      '-keyout',
      this.file('ca.key'),
      '-out',
      this.file('ca.pem'),
    );
    this.caPem = fs.readFileSync(this.file('ca.pem'), 'utf8');
  }

  /** A certificate for these names (the first as CN), signed by this CA. */
  leaf(names: string[]): Leaf {
    const name = `leaf-${++this.serial}`;
    fs.writeFileSync(
      this.file(`${name}.ext`),
      `subjectAltName=${names.map((host) => `DNS:${host}`).join(',')}\nextendedKeyUsage=serverAuth\n`,
    );
    this.run(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-subj',
      `/CN=${names[0]}`,
      '-keyout',
      this.file(`${name}.key`),
      '-out',
      this.file(`${name}.csr`),
    );
    this.run(
      'x509',
      '-req',
      '-in',
      this.file(`${name}.csr`),
      '-CA',
      this.file('ca.pem'),
      '-CAkey',
      this.file('ca.key'),
      '-set_serial',
      String(1000 + this.serial),
      '-days',
      '2',
      '-extfile',
      this.file(`${name}.ext`),
      '-out',
      this.file(`${name}.pem`),
    );
    return {
      certificatePem: fs.readFileSync(this.file(`${name}.pem`), 'utf8'),
      privateKeyPem: fs.readFileSync(this.file(`${name}.key`), 'utf8'),
    };
  }

  cleanup(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  private run(...args: string[]): void {
    execFileSync(openssl.path!, args, { cwd: this.dir, stdio: 'ignore' });
  }
}
