import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LIMITS } from '../../server/modules/auth/auth.limits.ts';
import { login } from './auth-helpers.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser } from './helpers/users.ts';

const redisUrl = process.env.REDIS_URL;
const freshIp = () => `2001:db8::${randomBytes(8).toString('hex').match(/.{4}/g)!.join(':')}`;

// Needs a Redis server (CI starts one); without REDIS_URL the counters are in-process and this cannot apply.
describe.skipIf(!redisUrl)('sign-in counters shared through REDIS_URL', () => {
  let replicaA: TestApp;
  let replicaB: TestApp;
  beforeAll(async () => {
    replicaA = await createTestApp({ REDIS_URL: redisUrl! });
    replicaB = await createTestApp({ REDIS_URL: redisUrl! }, { db: replicaA.app.db });
  });
  afterAll(async () => {
    await replicaB.close();
    await replicaA.close();
  });

  it('refuses on one replica the guesses another replica counted, and takes right passwords back on both', async () => {
    const user = await createSignedInUser(replicaA);
    const ip = freshIp();
    const guesses = await Promise.all(
      Array.from({ length: AUTH_LIMITS.failuresPerAccountAndIp.max }, (_, i) =>
        login(i % 2 ? replicaA : replicaB, user.email, 'Wrong-Password-1', ip),
      ),
    );
    expect(guesses.every((g) => g.statusCode === 401)).toBe(true);
    expect((await login(replicaB, user.email, user.password, ip)).statusCode).toBe(429);
    expect((await login(replicaA, user.email, user.password, freshIp())).statusCode).toBe(200);
  });
});

describe('sign-in limits while Redis cannot be reached', () => {
  let t: TestApp;
  let deadEnd: Server;
  beforeAll(async () => {
    // A port that accepts and drops every connection: Redis is configured but never answers.
    deadEnd = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => deadEnd.listen(0, '127.0.0.1', resolve));
    const { port } = deadEnd.address() as { port: number };
    t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => deadEnd.close(resolve));
  });

  it('still signs people in and still counts guesses, in process, never answering 5xx', async () => {
    const user = await createSignedInUser(t);
    expect((await login(t, user.email, user.password)).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i <= AUTH_LIMITS.failuresPerAccountAndIp.max; i++) {
      statuses.push((await login(t, user.email, 'Wrong-Password-1')).statusCode);
    }
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  }, 60_000);
});
