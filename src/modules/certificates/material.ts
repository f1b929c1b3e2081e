import type { X509Certificate } from 'node:crypto';
import { unprocessable } from '../../core/errors.js';
import {
  checkChainLinks,
  describeKey,
  distinguishedName,
  keyMatches,
  readChain,
  readLeafCertificate,
  readPrivateKey,
  subjectAltNames,
} from './pem.js';
import type { CertificateMaterial } from './schemas.js';

/** What an upload (or an ACME issue) yields: the PEM parts, the key to seal, and the parsed metadata. */
export interface ParsedMaterial {
  certificatePem: string;
  chainPem: string;
  privateKeyPkcs8: string;
  subject: string;
  issuer: string;
  serialNumber: string;
  sans: string[];
  notBefore: Date;
  notAfter: Date;
  fingerprintSha256: string;
  keyType: string;
  keyBits: number | null;
  curve: string | null;
  chainLength: number;
}

const validity = (certificate: X509Certificate) => ({
  notBefore: new Date(certificate.validFrom),
  notAfter: new Date(certificate.validTo),
});

/**
 * Parses and checks what an operator uploads, in this order: every PEM is readable (400 naming the
 * field), the key belongs to the certificate, the chain links up from the leaf, and the certificates
 * are within their validity (422 each, with a reason). Nothing here touches the database.
 */
export function parseMaterial(input: CertificateMaterial, now = new Date()): ParsedMaterial {
  const leaf = readLeafCertificate(input.certificatePem);
  const chain = readChain(input.chainPem);
  const key = readPrivateKey(input.privateKeyPem, input.privateKeyPassphrase);

  if (!keyMatches(leaf, key)) {
    throw unprocessable(
      'KEY_MISMATCH',
      'the private key does not belong to the certificate: its public key differs from the one the certificate carries',
    );
  }
  checkChainLinks(leaf, chain);

  const { notBefore, notAfter } = validity(leaf);
  if (notAfter < now && !input.allowExpired) {
    throw unprocessable(
      'CERTIFICATE_EXPIRED',
      `the certificate expired on ${notAfter.toISOString()}; send allowExpired: true to store it anyway`,
      { notAfter: notAfter.toISOString() },
    );
  }
  if (notBefore > now && !input.allowNotYetValid) {
    throw unprocessable(
      'CERTIFICATE_NOT_YET_VALID',
      `the certificate is valid only from ${notBefore.toISOString()}; send allowNotYetValid: true to store it anyway`,
      { notBefore: notBefore.toISOString() },
    );
  }
  chain.forEach((certificate, index) => {
    const expiry = validity(certificate).notAfter;
    if (expiry < now && !input.allowExpired) {
      throw unprocessable(
        'CHAIN_CERTIFICATE_EXPIRED',
        `chain certificate ${index + 1} (subject ${distinguishedName(certificate.subject)}) expired on ` +
          `${expiry.toISOString()}; send allowExpired: true to store it anyway`,
        { position: index + 1, notAfter: expiry.toISOString() },
      );
    }
  });

  return {
    certificatePem: leaf.toString(),
    chainPem: chain.map((certificate) => certificate.toString()).join(''),
    privateKeyPkcs8: key.export({ type: 'pkcs8', format: 'pem' }) as string,
    subject: distinguishedName(leaf.subject),
    issuer: distinguishedName(leaf.issuer),
    serialNumber: leaf.serialNumber,
    sans: subjectAltNames(leaf),
    notBefore,
    notAfter,
    fingerprintSha256: leaf.fingerprint256,
    ...describeKey(key),
    chainLength: chain.length,
  };
}
