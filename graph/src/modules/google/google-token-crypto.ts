import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../../config/config.js';

/**
 * Refresh tokens at rest: AES-256-GCM with a random 96-bit IV, the employee id as associated data
 * (a ciphertext copied to another row does not decrypt). Key: GOOGLE_TOKEN_KEY (32 bytes, hex or
 * base64), else HKDF-SHA256 of the session secret. Stored as `v1.<base64url(iv|tag|ciphertext)>`.
 */
export class TokenCipher {
  private readonly key: Buffer;

  constructor(config: Pick<Config, 'GOOGLE_TOKEN_KEY'>, sessionSecret: Buffer) {
    const k = config.GOOGLE_TOKEN_KEY;
    if (k) this.key = /^[0-9a-fA-F]{64}$/.test(k) ? Buffer.from(k, 'hex') : Buffer.from(k, 'base64');
    else
      this.key = Buffer.from(
        hkdfSync('sha256', sessionSecret, Buffer.from('intranet'), Buffer.from('google-refresh-token-v1'), 32),
      );
    if (this.key.length !== 32) throw new Error('GOOGLE_TOKEN_KEY must be 32 bytes');
  }

  encrypt(plain: string, employeeId: number): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(`employee:${employeeId}`));
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `v1.${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url')}`;
  }

  decrypt(stored: string, employeeId: number): string {
    if (!stored.startsWith('v1.')) throw new Error('unknown token format');
    const raw = Buffer.from(stored.slice(3), 'base64url');
    const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    d.setAAD(Buffer.from(`employee:${employeeId}`));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }
}
