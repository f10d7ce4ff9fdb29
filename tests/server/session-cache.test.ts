import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../server/db/connect.ts';
import { createSessionsRepository } from '../../server/modules/auth/sessions.repository.ts';
import { createUsersRepository } from '../../server/modules/auth/users.repository.ts';
import { openTestDatabase } from './helpers/test-database.ts';

describe('sessions kept in memory by the only process using the database', () => {
  let database: DatabaseHandle;
  const policy = { idleMs: 12 * 3_600_000, maxMs: 7 * 86_400_000 };
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database.close());

  async function newUser(email: string) {
    const users = createUsersRepository({ db: database.db });
    const user = await users.create({ email, name: 'Ada', passwordHash: 'x', institution: null });
    return { users, user: user! };
  }

  it('sees a profile change on the next request', async () => {
    const { users, user } = await newUser('change@example.org');
    const sessions = createSessionsRepository({ db: database.db, policy, onlyUser: true });
    const token = await sessions.create(user.id, new Date());
    expect((await sessions.resolve(token, new Date()))?.name).toBe('Ada');
    await users.updateProfile(user.id, { name: 'Ada Lovelace' });
    expect((await sessions.resolve(token, new Date()))?.name).toBe('Ada Lovelace');
  });

  it('refuses a token once revoked, alone or with all of its user', async () => {
    const { user } = await newUser('revoke@example.org');
    const sessions = createSessionsRepository({ db: database.db, policy, onlyUser: true });
    const one = await sessions.create(user.id, new Date());
    const other = await sessions.create(user.id, new Date());
    const resolved = await sessions.resolve(one, new Date());
    expect(resolved).toBeDefined();
    expect(await sessions.resolve(other, new Date())).toBeDefined();
    await sessions.revoke(resolved!.sessionId, new Date());
    expect(await sessions.resolve(one, new Date())).toBeUndefined();
    expect(await sessions.resolve(other, new Date())).toBeDefined();
    await sessions.revokeAllOf(user.id, new Date());
    expect(await sessions.resolve(other, new Date())).toBeUndefined();
  });

  it('does not keep a session read while its revocation was landing', async () => {
    const { user } = await newUser('race@example.org');
    const sessions = createSessionsRepository({ db: database.db, policy, onlyUser: true });
    const token = await sessions.create(user.id, new Date());
    const racing = sessions.resolve(token, new Date());
    await sessions.revokeAllOf(user.id, new Date());
    await racing;
    expect(await sessions.resolve(token, new Date())).toBeUndefined();
  });

  it('ends a kept session at its idle and absolute limits', async () => {
    const { user } = await newUser('expiry@example.org');
    const sessions = createSessionsRepository({ db: database.db, policy, onlyUser: true });
    const start = new Date();
    const token = await sessions.create(user.id, start);
    expect(await sessions.resolve(token, start)).toBeDefined();
    expect(await sessions.resolve(token, new Date(start.getTime() + policy.idleMs + 1))).toBeUndefined();
    const late = await sessions.create(user.id, start);
    let at = start.getTime();
    // Kept alive by use every 8 hours (under the 12-hour idle limit), it still ends at its absolute limit.
    const step = 8 * 3_600_000;
    while (at + step < start.getTime() + policy.maxMs) {
      at += step;
      expect(await sessions.resolve(late, new Date(at))).toBeDefined();
    }
    expect(await sessions.resolve(late, new Date(start.getTime() + policy.maxMs))).toBeUndefined();
  });
});
