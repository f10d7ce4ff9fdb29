import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaFactors } from '../../server/modules/mfa/mfa.table.ts';
import { openSecret, sealSecret } from '../../server/modules/mfa/secret-box.ts';
import { totpCodeAt } from '../../server/modules/mfa/totp.ts';
import { login } from './auth-helpers.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser } from './helpers/users.ts';

const KEY = 'a1'.repeat(32);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MFA_ENCRYPTION_KEY: KEY });
});
afterAll(() => t.close());

describe('TOTP secrets with MFA_ENCRYPTION_KEY', () => {
  it('are stored sealed, never in clear, and codes still sign in', async () => {
    const user = await createSignedInUser(t);
    const enrol = await t.app.inject({ method: 'POST', url: '/api/v1/account/mfa/enrol', headers: user.auth });
    const { secret } = enrol.json() as { secret: string };
    const [row] = await t.app.db.select().from(mfaFactors).where(eq(mfaFactors.userId, user.id));
    expect(row!.secret).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(row!.secret).not.toContain(secret);

    const now = t.clock.now();
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/mfa/confirm',
      headers: user.auth,
      payload: { code: totpCodeAt(secret, now) },
    });
    expect(confirm.statusCode).toBe(200);
    const { mfa_token } = (await login(t, user.email, user.password)).json() as { mfa_token: string };
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/mfa',
      payload: { mfa_token, code: totpCodeAt(secret, new Date(now.getTime() + 30_000)) },
    });
    expect(second.statusCode).toBe(200);
  });

  it('open only for the user and key they were sealed with; secrets stored before a key still open', () => {
    const key = Buffer.from(KEY, 'hex');
    const sealed = sealSecret('JBSWY3DPEHPK3PXP', 'user-a', key);
    expect(openSecret(sealed, 'user-a', key)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => openSecret(sealed, 'user-b', key)).toThrow();
    expect(() => openSecret(sealed, 'user-a', Buffer.alloc(32, 1))).toThrow();
    expect(() => openSecret(sealed, 'user-a', undefined)).toThrow(/MFA_ENCRYPTION_KEY/);
    expect(openSecret('JBSWY3DPEHPK3PXP', 'user-a', key)).toBe('JBSWY3DPEHPK3PXP');
    expect(sealSecret('JBSWY3DPEHPK3PXP', 'user-a', undefined)).toBe('JBSWY3DPEHPK3PXP');
  });
});
