import type { Database } from '../../db/connect.ts';

/** Per database, how many times each user's row was changed through this process. */
const changeCounts = new WeakMap<Database, Map<string, number>>();
/** Per database, how many user rows were changed through this process in all. */
const totals = new WeakMap<Database, number>();

/** Records that `userId`'s row changed; called by the users repository after every update. */
export function noteUserChanged(db: Database, userId: string): void {
  let counts = changeCounts.get(db);
  if (!counts) changeCounts.set(db, (counts = new Map()));
  counts.set(userId, (counts.get(userId) ?? 0) + 1);
  totals.set(db, (totals.get(db) ?? 0) + 1);
}

/** How many user rows this process has changed in `db`, across all users. */
export function allUserChangesCount(db: Database): number {
  return totals.get(db) ?? 0;
}

/** How many changes of `userId`'s row this process has recorded in `db`. */
export function userChangeCount(db: Database, userId: string): number {
  return changeCounts.get(db)?.get(userId) ?? 0;
}
