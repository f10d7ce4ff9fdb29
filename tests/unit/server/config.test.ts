import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.ts';

describe('loadConfig', () => {
  it('uses the embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(8787);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.uploadMaxBytes).toBe(2147483648);
    expect(config.publicSiteUrl).toBe('http://127.0.0.1:8787');
    expect(config.mailFrom).toBe('no-reply@localhost');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['STORAGE_URL', '/var/data'],
    ['SMTP_URL', 'not a url'],
    ['UPLOAD_MAX_BYTES', '-5'],
    ['LLM_BASE_URL', 'ftp://model'],
    ['REDIS_URL', 'http://redis'],
    ['MAIL_FROM', 'nobody'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '10.0.0.1, evil host'],
    ['HSTS_MAX_AGE', 'forever'],
    ['MFA_ENCRYPTION_KEY', 'secret'],
    ['MFA_ENCRYPTION_KEY', 'ab'.repeat(31)],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}:`));
  });

  it('strips trailing slashes from PUBLIC_SITE_URL and LLM_BASE_URL', () => {
    const config = loadConfig({ PUBLIC_SITE_URL: 'https://qc.example.org/', LLM_BASE_URL: 'http://127.0.0.1:8000/' });
    expect(config.publicSiteUrl).toBe('https://qc.example.org');
    expect(config.llm?.baseUrl).toBe('http://127.0.0.1:8000');
  });

  it('trusts no proxy unless TRUST_PROXY names a hop count or addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'loopback',
    ]);
    expect(loadConfig({}).hstsMaxAge).toBe(31_536_000);
    expect(loadConfig({ HSTS_MAX_AGE: '0' }).hstsMaxAge).toBe(0);
  });

  it('reads MFA_ENCRYPTION_KEY as 32 bytes in hex or base64, and leaves it unset by default', () => {
    expect(loadConfig({}).mfaEncryptionKey).toBeUndefined();
    const hex = '0f'.repeat(32);
    expect(loadConfig({ MFA_ENCRYPTION_KEY: hex }).mfaEncryptionKey).toEqual(Buffer.from(hex, 'hex'));
    const base64 = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ MFA_ENCRYPTION_KEY: base64 }).mfaEncryptionKey).toEqual(Buffer.alloc(32, 7));
  });
});
