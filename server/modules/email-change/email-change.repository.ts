import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { emailChanges } from './email-change.table.ts';

/** How long a confirmation link works. */
export const EMAIL_CHANGE_LIFETIME_MS = 24 * 3_600_000;

/** A stored request, looked up by the token its link carried. */
export type EmailChange = typeof emailChanges.$inferSelect;

/** Address-change requests: issue a link, find it, use it once. */
export function createEmailChangeRepository({ db }: { db: Database }) {
  return {
    /**
     * Records the request and returns the link's token in clear (only its hash is stored). Earlier open
     * requests of the user die with it, so only the newest link can change the address.
     */
    async issue(userId: string, newEmail: string, now: Date): Promise<string> {
      const token = newToken();
      await db.transaction(async (tx) => {
        await tx
          .update(emailChanges)
          .set({ usedAt: now })
          .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt)));
        await tx.insert(emailChanges).values({
          userId,
          newEmail,
          tokenHash: hashToken(token),
          createdAt: now,
          expiresAt: new Date(now.getTime() + EMAIL_CHANGE_LIFETIME_MS),
        });
      });
      return token;
    },

    /** The request a token stands for, used or not, expired or not; undefined when unknown. */
    async find(token: string): Promise<EmailChange | undefined> {
      const [row] = await db
        .select()
        .from(emailChanges)
        .where(eq(emailChanges.tokenHash, hashToken(token)))
        .limit(1);
      return row;
    },

    /** Marks the request used; false when another request used it first. */
    async consume(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(emailChanges)
        .set({ usedAt: now })
        .where(and(eq(emailChanges.id, id), isNull(emailChanges.usedAt)))
        .returning({ id: emailChanges.id });
      return rows.length === 1;
    },
  };
}

export type EmailChangeRepository = ReturnType<typeof createEmailChangeRepository>;
