import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { feedback } from '../../server/modules/analytics/analytics.table.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

describe('POST /api/v1/feedback', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => t.close());

  const answer = (payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/feedback', payload });

  it('stores a Yes and a No for guide sections', async () => {
    expect((await answer({ page: '/user-guide', section: 'troubleshooting', helpful: true })).statusCode).toBe(201);
    const no = await answer({ page: '/user-guide', section: 'glossary', helpful: false });
    expect(no.statusCode).toBe(201);
    expect(no.json()).toEqual({ status: 'recorded' });
    const rows = await t.app.db.select().from(feedback);
    expect(rows.map((r) => [r.page, r.section, r.helpful])).toEqual([
      ['/user-guide', 'troubleshooting', true],
      ['/user-guide', 'glossary', false],
    ]);
  });

  it.each([
    [{ page: '/user-guide', section: 'glossary' }],
    [{ page: '/user-guide', section: 'Glossary <b>', helpful: true }],
    [{ page: 'user-guide', section: 'glossary', helpful: true }],
    [{ page: '/user-guide', section: 'glossary', helpful: 'yes' }],
  ])('refuses a malformed answer with 400 (%#)', async (payload) => {
    expect((await answer(payload)).statusCode).toBe(400);
    expect(await t.app.db.select().from(feedback)).toHaveLength(0);
  });

  it('limits one address to 30 answers a minute', async () => {
    const payload = { page: '/user-guide', section: 'advanced', helpful: true };
    for (let i = 0; i < 30; i++) expect((await answer(payload)).statusCode).toBe(201);
    expect((await answer(payload)).statusCode).toBe(429);
  });
});
