import { eq } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { users } from './users.table.ts';

/** A row of `users`. */
export type UserRow = typeof users.$inferSelect;

/** The profile fields a user may change. */
export interface ProfileChanges {
  name?: string;
  role?: string | null;
  institution?: string | null;
  bio?: string | null;
}

/** Accounts: look up, create, verify, change password and profile. E-mails arrive already normalised. */
export function createUsersRepository({ db }: { db: Database }) {
  return {
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row;
    },

    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** Creates an unverified account; undefined when the e-mail was taken meanwhile (a concurrent sign-up). */
    async create(fields: {
      email: string;
      name: string;
      passwordHash: string;
      institution: string | null;
    }): Promise<UserRow | undefined> {
      const [row] = await db.insert(users).values(fields).onConflictDoNothing().returning();
      return row;
    },

    async markVerified(id: string, now: Date): Promise<void> {
      await db.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, id));
    },

    /** Sets a new password hash; a reset link also proves the address, so it verifies the account too. */
    async setPassword(user: UserRow, passwordHash: string, now: Date): Promise<void> {
      await db
        .update(users)
        .set({ passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now })
        .where(eq(users.id, user.id));
    },

    /**
     * Moves the account to a new address, which the confirmation link has just proved (so it counts as
     * verified); false when another account took the address meanwhile.
     */
    async changeEmail(id: string, email: string, now: Date): Promise<boolean> {
      try {
        const rows = await db
          .update(users)
          .set({ email, emailVerifiedAt: now })
          .where(eq(users.id, id))
          .returning({ id: users.id });
        return rows.length === 1;
      } catch (error) {
        // The unique index refused it: a concurrent registration or change took the address first.
        if (await this.findByEmail(email)) return false;
        throw error;
      }
    },

    async updateProfile(id: string, changes: ProfileChanges): Promise<UserRow | undefined> {
      if (Object.keys(changes).length === 0) return this.findById(id);
      const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
      return row;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
