import type { Database } from './connect.ts';

/**
 * Per database, how many times each key's rows were changed through this process, and how many changes
 * there were in all. A process that is the database's only user (PGlite) can trust these counts to say
 * whether something it keeps in memory is still current.
 */
export function createChangeCounter() {
  const counts = new WeakMap<Database, Map<string, number>>();
  const totals = new WeakMap<Database, number>();
  return {
    /** Records one change of `key`'s rows; called by a repository after each write. */
    note(db: Database, key: string): void {
      let perKey = counts.get(db);
      if (!perKey) counts.set(db, (perKey = new Map()));
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
      totals.set(db, (totals.get(db) ?? 0) + 1);
    },
    /** How many changes of `key`'s rows were recorded in `db`. */
    count(db: Database, key: string): number {
      return counts.get(db)?.get(key) ?? 0;
    },
    /** How many changes were recorded in `db`, across all keys. */
    total(db: Database): number {
      return totals.get(db) ?? 0;
    },
  };
}
