import { users } from '../../../server/modules/auth/users.table.ts';
import { hashPassword } from '../../../server/modules/auth/passwords.ts';
import type { TestApp } from './test-app.ts';

/** A user made straight in the database, with a live session token. */
export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  /** `Authorization` header for app.inject. */
  auth: { authorization: string };
}

let counter = 0;

/** Creates a verified user and signs them in, bypassing the registration flow. */
export async function createSignedInUser(
  t: TestApp,
  fields: { email?: string; name?: string; password?: string } = {},
): Promise<TestUser> {
  counter += 1;
  const email = fields.email ?? `user${counter}-${Date.now()}@example.org`;
  const password = fields.password ?? 'Correct-Horse-9';
  const [row] = await t.app.db
    .insert(users)
    .values({
      email,
      name: fields.name ?? `User ${counter}`,
      passwordHash: await hashPassword(password),
      emailVerifiedAt: t.clock.now(),
    })
    .returning({ id: users.id });
  const token = await t.app.sessions.create(row!.id, t.clock.now());
  return { id: row!.id, email, password, token, auth: { authorization: `Bearer ${token}` } };
}
