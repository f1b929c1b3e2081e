import crypto, { type KeyObject, X509Certificate } from 'node:crypto';
import { invalidField, unprocessable } from '../../core/errors.js';

/** One `-----BEGIN X-----…-----END X-----` block, with its label and its exact text. */
export interface PemBlock {
  label: string;
  text: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n[\s\S]*?-----END \1-----/g;

function pemBlocks(text: string): PemBlock[] {
  return [...text.matchAll(PEM_BLOCK)].map((match) => ({ label: match[1]!, text: `${match[0]}\n` }));
}

function describeLabels(blocks: PemBlock[]): string {
  return [...new Set(blocks.map((block) => block.label))].join(', ');
}

function parseCertificate(block: PemBlock, path: (string | number)[], what: string): X509Certificate {
  try {
    return new X509Certificate(block.text);
  } catch {
    throw invalidField(path, `${what} could not be parsed as an X.509 certificate`);
  }
}

/** Exactly one PEM certificate, or a 400 on `certificatePem` that says what was found instead. */
export function readLeafCertificate(text: string): X509Certificate {
  const path = ['certificatePem'];
  const blocks = pemBlocks(text);
  const certificates = blocks.filter((block) => block.label === 'CERTIFICATE');
  if (certificates.length === 0) {
    throw invalidField(
      path,
      blocks.length === 0
        ? 'is not PEM: expected one -----BEGIN CERTIFICATE----- block'
        : `holds ${describeLabels(blocks)} but no CERTIFICATE block`,
    );
  }
  if (certificates.length > 1) {
    throw invalidField(
      path,
      `holds ${certificates.length} certificates; put only the leaf certificate here and the intermediates in chainPem`,
    );
  }
  if (blocks.length > 1)
    throw invalidField(path, `holds ${describeLabels(blocks)}; expected one certificate only`);
  return parseCertificate(certificates[0]!, path, 'the certificate');
}

/** The chain certificates in the given order; an empty or blank chain is no chain. */
export function readChain(text: string | undefined): X509Certificate[] {
  if (text === undefined || text.trim() === '') return [];
  const path = ['chainPem'];
  const blocks = pemBlocks(text);
  if (blocks.length === 0)
    throw invalidField(path, 'is not PEM: expected -----BEGIN CERTIFICATE----- blocks');
  const stray = blocks.filter((block) => block.label !== 'CERTIFICATE');
  if (stray.length > 0)
    throw invalidField(path, `holds ${describeLabels(stray)}; expected certificates only`);
  return blocks.map((block, index) => parseCertificate(block, path, `chain certificate ${index + 1}`));
}

/**
 * The private key, whichever PEM form it comes in: PKCS#8 (`PRIVATE KEY`), PKCS#8 encrypted
 * (`ENCRYPTED PRIVATE KEY`), PKCS#1 (`RSA PRIVATE KEY`, possibly with legacy `Proc-Type` encryption)
 * or SEC1 (`EC PRIVATE KEY`, an `EC PARAMETERS` block beside it is ignored).
 */
export function readPrivateKey(text: string, passphrase: string | undefined): KeyObject {
  const path = ['privateKeyPem'];
  const blocks = pemBlocks(text);
  const keys = blocks.filter((block) => block.label.endsWith('PRIVATE KEY'));
  if (keys.length === 0) {
    throw invalidField(
      path,
      blocks.length === 0
        ? 'is not PEM: expected a -----BEGIN PRIVATE KEY----- (or RSA/EC/ENCRYPTED PRIVATE KEY) block'
        : `holds ${describeLabels(blocks)} but no private key`,
    );
  }
  if (keys.length > 1) throw invalidField(path, `holds ${keys.length} private keys; expected one`);
  const key = keys[0]!;
  const encrypted = key.label === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:\s*4,ENCRYPTED/.test(key.text);
  if (encrypted && (passphrase === undefined || passphrase === '')) {
    throw invalidField(['privateKeyPassphrase'], 'is required: the private key is encrypted');
  }
  try {
    return crypto.createPrivateKey(
      encrypted
        ? { key: key.text, format: 'pem', passphrase: passphrase! }
        : { key: key.text, format: 'pem' },
    );
  } catch {
    if (encrypted) throw invalidField(['privateKeyPassphrase'], 'does not decrypt the private key');
    throw invalidField(path, 'could not be parsed as a private key');
  }
}

const CURVE_NAMES: Record<string, string> = {
  prime256v1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
  secp256k1: 'secp256k1',
};

const FIXED_CURVES: Record<string, { curve: string; bits: number }> = {
  ed25519: { curve: 'Ed25519', bits: 256 },
  ed448: { curve: 'Ed448', bits: 456 },
  x25519: { curve: 'X25519', bits: 256 },
  x448: { curve: 'X448', bits: 448 },
};

const CURVE_BITS: Record<string, number> = { 'P-256': 256, 'P-384': 384, 'P-521': 521, secp256k1: 256 };

export interface KeyDescription {
  keyType: string;
  keyBits: number | null;
  curve: string | null;
}

export function describeKey(key: KeyObject): KeyDescription {
  const keyType = key.asymmetricKeyType ?? 'unknown';
  const details = key.asymmetricKeyDetails ?? {};
  if (details.modulusLength) return { keyType, keyBits: details.modulusLength, curve: null };
  if (details.namedCurve) {
    const curve = CURVE_NAMES[details.namedCurve] ?? details.namedCurve;
    return { keyType, keyBits: CURVE_BITS[curve] ?? null, curve };
  }
  const fixed = FIXED_CURVES[keyType];
  if (fixed) return { keyType, keyBits: fixed.bits, curve: fixed.curve };
  return { keyType, keyBits: null, curve: null };
}

/** True when the private key is the one whose public half the certificate carries. */
export function keyMatches(certificate: X509Certificate, key: KeyObject): boolean {
  const spki = (publicKey: KeyObject) => publicKey.export({ type: 'spki', format: 'der' });
  return spki(crypto.createPublicKey(key)).equals(spki(certificate.publicKey));
}

/** `C=US\nO=Example\nCN=host` → `C=US, O=Example, CN=host`. */
export function distinguishedName(text: string): string {
  return text.split('\n').filter(Boolean).join(', ');
}

/**
 * `DNS:a.example, IP Address:10.0.0.1, email:x@y` → `['a.example', '10.0.0.1', 'email:x@y']`:
 * host names and addresses bare, other kinds with their prefix. Values Node quotes are unquoted.
 */
export function subjectAltNames(certificate: X509Certificate): string[] {
  const text = certificate.subjectAltName;
  if (!text) return [];
  const names: string[] = [];
  for (const match of text.matchAll(/([A-Za-z ]+):("(?:[^"\\]|\\.)*"|[^,]*)(?:, |$)/g)) {
    const kind = match[1]!;
    let value = match[2]!;
    if (value.startsWith('"')) value = JSON.parse(value) as string;
    names.push(kind === 'DNS' || kind === 'IP Address' ? value : `${kind}:${value}`);
  }
  return names;
}

function label(certificate: X509Certificate, position: string): string {
  return `${position} (subject ${distinguishedName(certificate.subject)})`;
}

function issued(issuer: X509Certificate, child: X509Certificate): boolean {
  return child.checkIssued(issuer) && child.verify(issuer.publicKey);
}

/**
 * Each chain certificate must have issued the one before it, starting with the leaf: a 422 names the
 * first link that does not hold, and says when the right issuer is in the chain at the wrong place.
 */
export function checkChainLinks(leaf: X509Certificate, chain: X509Certificate[]): void {
  for (let index = 0; index < chain.length; index++) {
    const child = index === 0 ? leaf : chain[index - 1]!;
    const childName =
      index === 0 ? label(leaf, 'the leaf certificate') : label(child, `chain certificate ${index}`);
    const parent = chain[index]!;
    if (issued(parent, child)) continue;
    const link = {
      position: index + 1,
      subject: distinguishedName(parent.subject),
      expectedIssuerOf: distinguishedName(child.subject),
      expectedSubject: distinguishedName(child.issuer),
    };
    const elsewhere = chain.findIndex((candidate, other) => other !== index && issued(candidate, child));
    if (elsewhere >= 0) {
      throw unprocessable(
        'CHAIN_ORDER',
        `chain certificate ${elsewhere + 1} issued ${childName} but sits at position ${elsewhere + 1}; ` +
          `the chain must list each issuer right after the certificate it issued, the leaf's issuer first`,
        { link: { ...link, issuerFoundAt: elsewhere + 1 } },
      );
    }
    throw unprocessable(
      'CHAIN_BROKEN',
      `${label(parent, `chain certificate ${index + 1}`)} did not issue ${childName}, ` +
        `whose issuer is ${distinguishedName(child.issuer)}`,
      { link },
    );
  }
}
