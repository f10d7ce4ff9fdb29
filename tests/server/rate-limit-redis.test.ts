import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_LIMIT } from '../../server/modules/contact/contact.routes.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const redisUrl = process.env.REDIS_URL;

// Needs a Redis server (CI starts one); without REDIS_URL the counters are in-process and this cannot apply.
describe.skipIf(!redisUrl)('rate limits shared through REDIS_URL', () => {
  let replicaA: TestApp;
  let replicaB: TestApp;
  beforeAll(async () => {
    replicaA = await createTestApp({ REDIS_URL: redisUrl! });
    replicaB = await createTestApp({ REDIS_URL: redisUrl! });
  });
  afterAll(async () => {
    await replicaA.close();
    await replicaB.close();
  });

  it('counts one address across two replicas, so the second refuses what the first used up', async () => {
    // A fresh documentation address per run keeps earlier runs' counters out of the way: the Redis server
    // outlives a run, and one of 254 addresses met an earlier run's address within its 15-minute window.
    const ip = `2001:db8::${randomBytes(8).toString('hex').match(/.{4}/g)!.join(':')}`;
    const send = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/contact-messages',
        remoteAddress: ip,
        payload: {
          full_name: 'Dr Ana Lima',
          email: 'ana@example.org',
          institution: null,
          message: 'Hello there, team.',
        },
      });
    for (let i = 0; i < CONTACT_LIMIT.max; i++) expect((await send(replicaA)).statusCode).toBe(201);
    const refused = await send(replicaB);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/^Too many requests/);
  });
});
