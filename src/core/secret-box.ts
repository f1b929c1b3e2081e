import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeMasterKey } from '../config.js';

const VERSION = 'v1';

/**
 * Encrypts secrets at rest with AES-256-GCM under the master key, a fresh 12-byte nonce per value.
 * Stored form: `v1.<nonce b64>.<tag b64>.<ciphertext b64>`. `context` binds a value to its place
 * (e.g. `databases.password`) so a ciphertext copied into another column does not decrypt.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('master key must be 32 bytes');
  }

  seal(plaintext: string, context: string): string {
    const nonce = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, nonce, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64')))
      .join('.');
  }

  /**
   * A 32-byte key for one purpose (e.g. signing audit checkpoints), derived from the master key with
   * HKDF-SHA256: stable for as long as the master key is, and telling nothing about it.
   */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(crypto.hkdfSync('sha256', this.key, Buffer.alloc(0), `infragate:${purpose}`, 32));
  }

  open(sealed: string, context: string): string {
    const [version, nonce, tag, body] = sealed.split('.');
    if (version !== VERSION || !nonce || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}

/** The configured key, else `<dataDir>/master.key`, created with mode 0600 on first use. */
export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return decodeMasterKey(configured)!;
  const file = path.join(dataDir, 'master.key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = decodeMasterKey(fs.readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}
