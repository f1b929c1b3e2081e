import crypto from 'node:crypto';
import type { Deps } from '../../core/deps.js';
import type { Checkpoint } from './schemas.js';

/** DER header of a PKCS#8 Ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The exact text a checkpoint's signature covers. */
export function checkpointText(seq: number, hash: string): string {
  return `infragate-audit-checkpoint/v1\nseq ${seq}\nhash ${hash}\n`;
}

/**
 * Signs checkpoints of the audit chain with an Ed25519 key derived from the master key, so anyone
 * holding the published public key can check a checkpoint, and nobody without the master key can
 * make one. Ed25519 signatures are deterministic: the same head always gives the same checkpoint.
 */
export class CheckpointSigner {
  private readonly privateKey: crypto.KeyObject;
  private readonly publicKeyPem: string;
  private readonly keyId: string;

  constructor({ secrets }: Pick<Deps, 'secrets'>) {
    this.privateKey = crypto.createPrivateKey({
      key: Buffer.concat([ED25519_PKCS8_PREFIX, secrets.deriveKey('audit-checkpoint-ed25519')]),
      format: 'der',
      type: 'pkcs8',
    });
    const publicKey = crypto.createPublicKey(this.privateKey);
    this.publicKeyPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const raw = publicKey.export({ format: 'der', type: 'spki' });
    this.keyId = crypto.createHash('sha256').update(raw).digest('hex').slice(0, 16);
  }

  sign(seq: number, hash: string): Checkpoint {
    const signedText = checkpointText(seq, hash);
    return {
      seq,
      hash,
      signedText,
      algorithm: 'Ed25519',
      keyId: this.keyId,
      publicKey: this.publicKeyPem,
      signature: crypto.sign(null, Buffer.from(signedText), this.privateKey).toString('base64'),
    };
  }
}
