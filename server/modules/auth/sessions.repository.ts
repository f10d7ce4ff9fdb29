import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { sessions } from './sessions.table.ts';
import { users } from './users.table.ts';
import { hashToken, newToken } from './tokens.ts';

/** Session lifetimes: idle expiry and absolute expiry. */
export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

/** The signed-in caller a valid token stands for. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  orgId: string | null;
  sessionId: string;
}

// Writing last_seen_at on every request would turn reads into writes; a minute's precision is enough.
const TOUCH_EVERY_MS = 60_000;

/** The columns a live session is checked and its user is known by; read them with `liveSessionWhere`. */
export const liveSessionColumns = {
  sessionId: sessions.id,
  lastSeenAt: sessions.lastSeenAt,
  expiresAt: sessions.expiresAt,
  id: users.id,
  email: users.email,
  name: users.name,
  orgId: users.orgId,
};

/** A row of `liveSessionColumns`. */
export interface LiveSessionRow {
  sessionId: string;
  lastSeenAt: Date;
  expiresAt: Date;
  id: string;
  email: string;
  name: string;
  orgId: string | null;
}

/**
 * The condition of a session that is neither revoked nor past its end, over `sessions` joined with its
 * `users` row, with the placeholders `tokenHash` (the token's `hashToken`) and `now` of a prepared query.
 */
export function liveSessionWhere() {
  return and(
    eq(sessions.tokenHash, sql.placeholder('tokenHash')),
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, sql.placeholder('now')),
  );
}

/** Sessions: create on sign-in, resolve a bearer token, revoke one or all. */
export function createSessionsRepository({ db, policy }: { db: Database; policy: SessionPolicy }) {
  // Every authenticated request runs this; built once, it skips composing the SQL each time.
  const liveSession = db
    .select(liveSessionColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(liveSessionWhere())
    .limit(1)
    .prepare('live_session');

  /**
   * The user of a row read with `liveSessionColumns` and `liveSessionWhere` (alone, or joined with what a
   * request needs besides), or undefined when the session went idle too long; notes the session as seen.
   */
  async function accept(row: LiveSessionRow | undefined, now: Date): Promise<SessionUser | undefined> {
    if (!row) return undefined;
    const at = now.getTime();
    if (at >= row.expiresAt.getTime() || at - row.lastSeenAt.getTime() > policy.idleMs) return undefined;
    if (at - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
    }
    return { id: row.id, email: row.email, name: row.name, orgId: row.orgId, sessionId: row.sessionId };
  }

  return {
    /** Starts a session and returns its token, shown to the client once and stored only hashed. */
    async create(userId: string, now: Date): Promise<string> {
      const token = newToken();
      await db.insert(sessions).values({
        userId,
        tokenHash: hashToken(token),
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + policy.maxMs),
      });
      return token;
    },

    /** The user behind a token, or undefined when it is unknown, revoked, idle too long or past its end. */
    async resolve(token: string, now: Date): Promise<SessionUser | undefined> {
      const [row] = await liveSession.execute({ tokenHash: hashToken(token), now });
      return accept(row, now);
    },

    accept,

    async revoke(sessionId: string, now: Date): Promise<void> {
      await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
    },

    async revokeAllOf(userId: string, now: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
