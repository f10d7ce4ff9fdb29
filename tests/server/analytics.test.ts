import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pageViews } from '../../server/modules/analytics/analytics.table.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

describe('POST /api/v1/analytics/page-views', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => t.close());

  const view = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/v1/analytics/page-views', payload, headers });

  it('stores the path and the referrer without query, fragment, cookie or IP', async () => {
    const response = await view(
      { path: '/careers?utm_source=x', referrer: 'https://news.example/item?id=42&email=a@b.c#top' },
      { cookie: 'sid=abc' },
    );
    expect(response.statusCode).toBe(204);
    const rows = await t.app.db.select().from(pageViews);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ path: '/careers', referrer: 'https://news.example/item' });
    expect(Object.keys(rows[0]!).sort()).toEqual(['createdAt', 'id', 'path', 'referrer']);
  });

  it('takes a view without referrer', async () => {
    expect((await view({ path: '/', referrer: null })).statusCode).toBe(204);
    expect((await view({ path: '/user-guide' })).statusCode).toBe(204);
    const rows = await t.app.db.select().from(pageViews);
    expect(rows.map((r) => r.referrer)).toEqual([null, null]);
  });

  it('counts nothing when the browser sends Do Not Track', async () => {
    expect((await view({ path: '/' }, { dnt: '1' })).statusCode).toBe(204);
    expect(await t.app.db.select().from(pageViews)).toHaveLength(0);
  });

  it('refuses a path that is not a site path with 400', async () => {
    const response = await view({ path: 'https://evil.example/' });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('path: path must start with /');
  });
});

describe('POST /api/v1/analytics/page-views under load from one address', () => {
  it('takes 1000 views a minute from one address (a hospital behind NAT), then answers 429', async () => {
    const t = await createTestApp();
    try {
      const send = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/analytics/page-views',
          payload: { path: '/' },
          headers: { dnt: '1' },
        });
      for (let i = 0; i < 1000; i++) expect((await send()).statusCode).toBe(204);
      expect((await send()).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });
});
