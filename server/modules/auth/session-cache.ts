import type { Database } from '../../db/connect.ts';
import type { SessionUser } from './sessions.repository.ts';
import { userChanges } from './user-changes.ts';

/** What resolving a token needs of its session and user. */
export interface CachedSession {
  user: SessionUser;
  lastSeenAt: number;
  expiresAt: number;
}

interface Entry {
  /** Shared with resolve, which moves its last-seen time forward. */
  session: CachedSession;
  /** The user's change count when this was read; a profile change since makes it stale. */
  userVersion: number;
}

/** A marker taken before reading a session; an entry read across a change is not kept. */
export interface ReadMark {
  revocations: number;
  userChanges: number;
}

/** Sessions kept; the oldest goes first. */
const MAX_SESSIONS = 10_000;

/**
 * Live sessions by token hash, for a process that is the database's only user (PGlite, embedded and
 * locked to one process): every session and user write goes through this process, so the cache can be
 * exact. Looking a session up in PGlite costs about a millisecond of the one thread, which every signed-in
 * request paid. Revocations and user changes drop what they touch; an entry read while one happened is
 * never stored, so a revoked token cannot be revived by a lookup that raced its revocation.
 */
export function createSessionCache(db: Database) {
  const entries = new Map<string, Entry>();
  let revocations = 0;
  return {
    get(tokenHash: string): CachedSession | undefined {
      const entry = entries.get(tokenHash);
      if (entry && entry.userVersion !== userChanges.count(db, entry.session.user.id)) {
        entries.delete(tokenHash);
        return undefined;
      }
      return entry?.session;
    },

    mark(): ReadMark {
      return { revocations, userChanges: userChanges.total(db) };
    },

    set(tokenHash: string, session: CachedSession, mark: ReadMark): void {
      if (mark.revocations !== revocations || mark.userChanges !== userChanges.total(db)) return;
      entries.set(tokenHash, { session, userVersion: userChanges.count(db, session.user.id) });
      if (entries.size > MAX_SESSIONS) entries.delete(entries.keys().next().value!);
    },

    delete(tokenHash: string): void {
      entries.delete(tokenHash);
    },

    /** Drops every session `matches` selects, and keeps out lookups that started before. */
    revokeWhere(matches: (session: CachedSession) => boolean): void {
      revocations++;
      for (const [tokenHash, entry] of entries) if (matches(entry.session)) entries.delete(tokenHash);
    },
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;
