import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findBinary } from './peers.js';

/** The openssl CLI, or the reason a suite skips without it. */
export const openssl = findBinary('openssl', ['/usr/bin/openssl']);
// Suites gate on `openssl.path`; the reason they skip is printed once by each test file that needs it.
if (openssl.skipReason) console.warn(`skipping the tests that need openssl: ${openssl.skipReason}`);

export const KEY_PASSPHRASE = 'correct horse battery staple';

/** One certificate and its key in the forms a test uploads. */
export interface Issued {
  certificatePem: string;
  /** PKCS#8 unless the name of the entry says otherwise. */
  keyPem: string;
}

/** Test material made by the openssl CLI in a temp dir: a CA, an intermediate and leaves of every kind. */
export interface TestPki {
  dir: string;
  root: Issued;
  intermediate: Issued;
  /** Signed by a CA that has nothing to do with `root`. */
  strangerCa: Issued;
  /** RSA 2048 leaf with SANs `rsa.example.test`, `www.example.test`, `10.0.0.1`. */
  rsaLeaf: Issued & { pkcs1KeyPem: string; encryptedPkcs8KeyPem: string; encryptedPkcs1KeyPem: string };
  /** EC P-256 leaf; `keyPem` is SEC1 with its EC PARAMETERS block, as `openssl ecparam -genkey` writes it. */
  ecLeaf: Issued & { pkcs8KeyPem: string };
  ed25519Leaf: Issued;
  /** Valid 2020-01-01 to 2021-01-01. */
  expiredLeaf: Issued;
  /** Valid from 30 days from now. */
  futureLeaf: Issued;
  /** An intermediate that expired in 2021, and a current leaf it signed. */
  expiredIntermediate: Issued;
  leafOfExpiredIntermediate: Issued;
  /** An RSA key that belongs to no certificate. */
  otherRsaKeyPem: string;
  /** intermediate then root, the right order for the leaves. */
  chainPem: string;
  /** Removes the temp dir. */
  cleanup(): void;
}

/** `YYYYMMDDHHMMSSZ` as `openssl ca -startdate` takes it. */
function asn1Time(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

export function makeTestPki(): TestPki {
  if (!openssl.path) throw new Error(openssl.skipReason);
  const bin = openssl.path;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-pki-'));
  const file = (name: string) => path.join(dir, name);
  const run = (...args: string[]) => execFileSync(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const write = (name: string, text: string) => {
    fs.writeFileSync(file(name), text);
    return file(name);
  };
  const read = (name: string) => fs.readFileSync(file(name), 'utf8');
  const serial = () => `0x${crypto.randomBytes(8).toString('hex')}`;

  const caExtensions = write(
    'ca.ext',
    'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid:always\n',
  );
  const leafExtensions = (name: string, sans: string) =>
    write(
      `${name}.ext`,
      `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=${sans}\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid:always\n`,
    );
  const ecKey = (name: string) =>
    run('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file(`${name}.key`));

  const csr = (name: string, cn: string) =>
    run(
      'req',
      '-new',
      '-key',
      file(`${name}.key`),
      '-subj',
      `/O=Infragate Tests/CN=${cn}`,
      '-out',
      file(`${name}.csr`),
    );

  /** A new EC P-256 key and a certificate request for it. */
  const ecRequest = (name: string, cn: string) => {
    ecKey(name);
    csr(name, cn);
  };

  const selfSignedCa = (name: string, cn: string): Issued => {
    ecRequest(name, cn);
    run(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-signkey',
      file(`${name}.key`),
      '-days',
      '3650',
      '-sha256',
      '-set_serial',
      serial(),
      '-extfile',
      caExtensions,
      '-out',
      file(`${name}.crt`),
    );
    return { certificatePem: read(`${name}.crt`), keyPem: read(`${name}.key`) };
  };

  const sign = (name: string, issuer: string, extensions: string, days = 90) => {
    run(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file(`${issuer}.crt`),
      '-CAkey',
      file(`${issuer}.key`),
      '-days',
      String(days),
      '-sha256',
      '-set_serial',
      serial(),
      '-extfile',
      extensions,
      '-out',
      file(`${name}.crt`),
    );
    return read(`${name}.crt`);
  };

  // `openssl ca` is the only 3.0 command that takes explicit validity dates.
  fs.mkdirSync(file('newcerts'));
  write('index.txt', '');
  const caConfig = write(
    'ca.cnf',
    `[ca]\ndefault_ca=test\n[test]\ndatabase=${file('index.txt')}\nnew_certs_dir=${file('newcerts')}\nserial=${file('serial')}\ndefault_md=sha256\npolicy=any\nunique_subject=no\n[any]\ncommonName=supplied\norganizationName=optional\n`,
  );
  const signWithDates = (name: string, issuer: string, extensions: string, start: Date, end: Date) => {
    write('serial', `${crypto.randomBytes(8).toString('hex')}\n`);
    run(
      'ca',
      '-batch',
      '-config',
      caConfig,
      '-cert',
      file(`${issuer}.crt`),
      '-keyfile',
      file(`${issuer}.key`),
      '-in',
      file(`${name}.csr`),
      '-out',
      file(`${name}.crt`),
      '-notext',
      '-extfile',
      extensions,
      '-startdate',
      asn1Time(start),
      '-enddate',
      asn1Time(end),
    );
    return read(`${name}.crt`);
  };

  const root = selfSignedCa('root', 'Infragate Test Root CA');
  const strangerCa = selfSignedCa('stranger', 'Unrelated Test CA');

  ecRequest('intermediate', 'Infragate Test Intermediate CA');
  const intermediate = {
    certificatePem: sign('intermediate', 'root', caExtensions, 1825),
    keyPem: read('intermediate.key'),
  };

  // RSA 2048 in PKCS#8, PKCS#1 and both encrypted forms.
  run('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', file('rsa.key'));
  run('rsa', '-in', file('rsa.key'), '-traditional', '-out', file('rsa-pkcs1.key'));
  run(
    'pkcs8',
    '-topk8',
    '-in',
    file('rsa.key'),
    '-v2',
    'aes-256-cbc',
    '-passout',
    `pass:${KEY_PASSPHRASE}`,
    '-out',
    file('rsa-enc.key'),
  );
  run(
    'rsa',
    '-in',
    file('rsa.key'),
    '-traditional',
    '-aes256',
    '-passout',
    `pass:${KEY_PASSPHRASE}`,
    '-out',
    file('rsa-pkcs1-enc.key'),
  );
  csr('rsa', 'rsa.example.test');
  const rsaLeaf = {
    certificatePem: sign(
      'rsa',
      'intermediate',
      leafExtensions('rsa', 'DNS:rsa.example.test,DNS:www.example.test,IP:10.0.0.1'),
    ),
    keyPem: read('rsa.key'),
    pkcs1KeyPem: read('rsa-pkcs1.key'),
    encryptedPkcs8KeyPem: read('rsa-enc.key'),
    encryptedPkcs1KeyPem: read('rsa-pkcs1-enc.key'),
  };

  // EC P-256 as `openssl ecparam -genkey` writes it: EC PARAMETERS + SEC1 EC PRIVATE KEY.
  write('ec.key', execFileSync(bin, ['ecparam', '-name', 'prime256v1', '-genkey'], { encoding: 'utf8' }));
  run('pkey', '-in', file('ec.key'), '-out', file('ec-pkcs8.key'));
  csr('ec', 'ec.example.test');
  const ecLeaf = {
    certificatePem: sign('ec', 'intermediate', leafExtensions('ec', 'DNS:ec.example.test')),
    keyPem: read('ec.key'),
    pkcs8KeyPem: read('ec-pkcs8.key'),
  };

  run('genpkey', '-algorithm', 'ED25519', '-out', file('ed.key'));
  csr('ed', 'ed25519.example.test');
  const ed25519Leaf = {
    certificatePem: sign('ed', 'intermediate', leafExtensions('ed', 'DNS:ed25519.example.test')),
    keyPem: read('ed.key'),
  };

  ecRequest('expired', 'expired.example.test');
  const expiredLeaf = {
    certificatePem: signWithDates(
      'expired',
      'intermediate',
      leafExtensions('expired', 'DNS:expired.example.test'),
      new Date('2020-01-01T00:00:00Z'),
      new Date('2021-01-01T00:00:00Z'),
    ),
    keyPem: read('expired.key'),
  };

  ecRequest('future', 'future.example.test');
  const start = new Date(Date.now() + 30 * 86_400_000);
  const futureLeaf = {
    certificatePem: signWithDates(
      'future',
      'intermediate',
      leafExtensions('future', 'DNS:future.example.test'),
      start,
      new Date(start.getTime() + 90 * 86_400_000),
    ),
    keyPem: read('future.key'),
  };

  ecRequest('old-intermediate', 'Expired Test Intermediate CA');
  const expiredIntermediate = {
    certificatePem: signWithDates(
      'old-intermediate',
      'root',
      caExtensions,
      new Date('2019-01-01T00:00:00Z'),
      new Date('2021-01-01T00:00:00Z'),
    ),
    keyPem: read('old-intermediate.key'),
  };
  ecRequest('orphan', 'orphan.example.test');
  const leafOfExpiredIntermediate = {
    certificatePem: sign('orphan', 'old-intermediate', leafExtensions('orphan', 'DNS:orphan.example.test')),
    keyPem: read('orphan.key'),
  };

  run('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', file('other.key'));

  return {
    dir,
    root,
    intermediate,
    strangerCa,
    rsaLeaf,
    ecLeaf,
    ed25519Leaf,
    expiredLeaf,
    futureLeaf,
    expiredIntermediate,
    leafOfExpiredIntermediate,
    otherRsaKeyPem: read('other.key'),
    chainPem: intermediate.certificatePem + root.certificatePem,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A throw-away CA and a server certificate for localhost / 127.0.0.1, made by openssl; answers file paths. */
export function localhostCertificate(): { dir: string; ca: string; cert: string; key: string } {
  if (!openssl.path) throw new Error(openssl.skipReason);
  const bin = openssl.path;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-localhost-tls-'));
  const file = (name: string) => path.join(dir, name);
  const run = (...args: string[]) => execFileSync(bin, args, { stdio: 'ignore' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=infragate-test-ca',
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=localhost',
  );
  fs.writeFileSync(file('ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '2',
    '-extfile',
    file('ext'),
  );
  return { dir, ca: file('ca.pem'), cert: file('server.pem'), key: file('server.key') };
}
