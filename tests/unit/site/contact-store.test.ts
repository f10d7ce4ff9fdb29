import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../server/helpers/test-app.ts';

type Store = typeof import('../../../src/stores/contact.ts');

// The store talks to the real API listening on loopback, reached through PUBLIC_API_BASE as a
// deployment with the API on another host would be.
describe('the contact form store', () => {
  let t: TestApp;
  let store: Store;
  beforeAll(async () => {
    t = await createTestApp();
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    vi.stubEnv('PUBLIC_API_BASE', `${address}/api/v1`);
    store = await import('../../../src/stores/contact.ts');
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await t.close();
  });

  it('goes sending → sent when the server accepts the message', async () => {
    const seen: string[] = [];
    const stop = store.$contactStatus.listen((s) => seen.push(s));
    const ok = await store.sendContactMessage({
      full_name: 'Ana',
      email: 'ana@example.org',
      message: 'Hello',
      institution: null,
    });
    stop();
    expect(ok).toBe(true);
    expect(seen).toEqual(['sending', 'sent']);
  });

  it('ends in failed when the server refuses it', async () => {
    const ok = await store.sendContactMessage({ full_name: 'Ana', email: 'not-an-email', message: 'Hello' });
    expect(ok).toBe(false);
    expect(store.$contactStatus.get()).toBe('failed');
  });
});
