import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Node's AES-256-GCM, not a home-made cipher: the only code here is the storage format around it.
const PREFIX = 'v1';

/**
 * The TOTP secret as stored: sealed with AES-256-GCM under MFA_ENCRYPTION_KEY when one is configured
 * (bound to the user, so a sealed secret copied onto another account does not open), else as is.
 * @example sealSecret('JBSWY3DPEHPK3PXP', userId, key) // 'v1:<iv>:<tag>:<ciphertext>' (base64url parts)
 */
export function sealSecret(secret: string, userId: string, key: Buffer | undefined): string {
  if (!key) return secret;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(userId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [PREFIX, iv, cipher.getAuthTag(), sealed]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join(':');
}

/**
 * The TOTP secret of a stored value. Secrets stored before a key was configured stay readable; a sealed
 * one without the key, or with another key or user, throws (the operator must restore the key).
 */
export function openSecret(stored: string, userId: string, key: Buffer | undefined): string {
  const parts = stored.split(':');
  if (parts[0] !== PREFIX || parts.length !== 4) return stored;
  if (!key) throw new Error('An MFA secret is encrypted but MFA_ENCRYPTION_KEY is not set');
  const [iv, tag, sealed] = parts.slice(1).map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(userId));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
}
