import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { authTokens } from './auth-tokens.table.ts';
import { hashToken, newToken } from './tokens.ts';

/** What a token is for: an e-mail link, or 'mfa', the second step of a sign-in whose password was right. */
export type TokenPurpose = 'verify' | 'reset' | 'mfa';

/** How long each kind of e-mail link works. */
export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  verify: 24 * 3_600_000,
  reset: 30 * 60_000,
  mfa: 5 * 60_000,
};

/** A stored e-mail token, looked up by the token the link carried. */
export interface StoredToken {
  id: string;
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** Single-use e-mail tokens (verification and reset), kept only as SHA-256 hashes. */
export function createAuthTokensRepository({ db }: { db: Database }) {
  return {
    /** Issues a new token for the user and returns it in clear, for the link; only its hash is stored. */
    async issue(userId: string, purpose: TokenPurpose, now: Date): Promise<string> {
      const token = newToken();
      await db.insert(authTokens).values({
        userId,
        purpose,
        tokenHash: hashToken(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]),
      });
      return token;
    },

    /** The stored token of that purpose, used or not, expired or not; undefined when unknown. */
    async find(token: string, purpose: TokenPurpose): Promise<StoredToken | undefined> {
      const [row] = await db
        .select({
          id: authTokens.id,
          userId: authTokens.userId,
          expiresAt: authTokens.expiresAt,
          usedAt: authTokens.usedAt,
        })
        .from(authTokens)
        .where(and(eq(authTokens.tokenHash, hashToken(token)), eq(authTokens.purpose, purpose)))
        .limit(1);
      return row;
    },

    /**
     * Marks the token used; false when another request used it first, so one link can succeed only once
     * even when two requests race.
     */
    async consume(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(authTokens)
        .set({ usedAt: now })
        .where(and(eq(authTokens.id, id), isNull(authTokens.usedAt)))
        .returning({ id: authTokens.id });
      return rows.length === 1;
    },

    /** Uses up every open token of that purpose for the user (older reset links die with a reset). */
    async consumeAllOf(userId: string, purpose: TokenPurpose, now: Date): Promise<void> {
      await db
        .update(authTokens)
        .set({ usedAt: now })
        .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt)));
    },
  };
}

/** Whether a stored token can still be used at `now`. */
export function isLive(token: StoredToken, now: Date): boolean {
  return token.usedAt === null && token.expiresAt.getTime() > now.getTime();
}

export type AuthTokensRepository = ReturnType<typeof createAuthTokensRepository>;
