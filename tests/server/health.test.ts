import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

describe('health and unknown API paths', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers ok once the database and storage respond', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers 404 with a JSON detail for an unknown API path', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found' });
  });

  it('sends security headers on API answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('answers alike from the route and from the fast path a fresh probe opens', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'));
      // A query string keeps a request off the fast path, so this one is the route's own answer.
      const routed = await fetch(`${address}/api/v1/health?via=route`);
      expect(t.app.healthProbe.isFresh()).toBe(true);
      const fast = await fetch(`${address}/api/v1/health`);
      expect(fast.status).toBe(200);
      expect(await fast.json()).toEqual(await routed.json());
      expect(headersOf(fast)).toEqual(headersOf(routed));
    } finally {
      await t.app.server.close();
    }
  });
});
