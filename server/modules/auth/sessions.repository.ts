import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { sessions } from './sessions.table.ts';
import { users } from './users.table.ts';
import { createSessionCache, type CachedSession } from './session-cache.ts';
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

/**
 * Sessions: create on sign-in, resolve a bearer token, revoke one or all. `onlyUser` says no other
 * process can change the database (PGlite), which lets live sessions be kept in memory.
 */
export function createSessionsRepository({
  db,
  policy,
  onlyUser = false,
}: {
  db: Database;
  policy: SessionPolicy;
  onlyUser?: boolean;
}) {
  const cache = onlyUser ? createSessionCache(db) : undefined;
  // Every authenticated request runs this; built once, it skips composing the SQL each time.
  const liveSession = db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      id: users.id,
      email: users.email,
      name: users.name,
      orgId: users.orgId,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('live_session');

  /** Reads a live session from the database (kept in the cache when there is one). */
  async function read(tokenHash: string, now: Date): Promise<CachedSession | undefined> {
    const mark = cache?.mark();
    const [row] = await liveSession.execute({ tokenHash, now });
    if (!row) return undefined;
    const session: CachedSession = {
      user: { id: row.id, email: row.email, name: row.name, orgId: row.orgId, sessionId: row.sessionId },
      lastSeenAt: row.lastSeenAt.getTime(),
      expiresAt: row.expiresAt.getTime(),
    };
    if (cache && mark) cache.set(tokenHash, session, mark);
    return session;
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
      const tokenHash = hashToken(token);
      const session = cache?.get(tokenHash) ?? (await read(tokenHash, now));
      if (!session) return undefined;
      const at = now.getTime();
      if (at >= session.expiresAt || at - session.lastSeenAt > policy.idleMs) {
        cache?.delete(tokenHash);
        return undefined;
      }
      if (at - session.lastSeenAt > TOUCH_EVERY_MS) {
        session.lastSeenAt = at;
        await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, session.user.sessionId));
      }
      return session.user;
    },

    async revoke(sessionId: string, now: Date): Promise<void> {
      await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
      // After the write: a lookup that read the row before it landed is then refused a place.
      cache?.revokeWhere((session) => session.user.sessionId === sessionId);
    },

    async revokeAllOf(userId: string, now: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
      cache?.revokeWhere((session) => session.user.id === userId);
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
