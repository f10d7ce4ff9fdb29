import { Secret, TOTP } from 'otpauth';
import { brand } from '../../../contract/brand.ts';

// RFC 6238 defaults, the only settings every authenticator app understands.
const PERIOD_S = 30;
/** One step either side of now: a phone clock 30 s off, or a code typed as it changed, still works. */
const WINDOW = 1;

const totpOf = (secret: string, label = '') =>
  new TOTP({
    issuer: brand.name,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });

/** A fresh 160-bit TOTP secret in base32, as RFC 4226 recommends. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secret: string, accountEmail: string): string {
  return totpOf(secret, accountEmail).toString();
}

/**
 * The 30-second step a six-digit code belongs to, if it is right for the secret within one step of
 * `now`; undefined otherwise. The step lets the caller refuse a code already used.
 */
export function totpStep(secret: string, code: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const timestamp = now.getTime();
  const delta = totpOf(secret).validate({ token: code, timestamp, window: WINDOW });
  return delta === null ? undefined : TOTP.counter({ period: PERIOD_S, timestamp }) + delta;
}

/** The code an authenticator shows at `now` (for tests and for nothing else). */
export function totpCodeAt(secret: string, now: Date): string {
  return totpOf(secret).generate({ timestamp: now.getTime() });
}
