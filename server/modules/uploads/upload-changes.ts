import type { Database } from '../../db/connect.ts';

/** Per database, how many times each owner's uploads were added to or removed through this process. */
const changeCounts = new WeakMap<Database, Map<string, number>>();

/** Records that `ownerId`'s uploads changed; called by the repository after every insert and delete. */
export function noteUploadsChanged(db: Database, ownerId: string): void {
  let counts = changeCounts.get(db);
  if (!counts) changeCounts.set(db, (counts = new Map()));
  counts.set(ownerId, (counts.get(ownerId) ?? 0) + 1);
}

/** How many changes of `ownerId`'s uploads this process has recorded in `db`. */
export function uploadsChangeCount(db: Database, ownerId: string): number {
  return changeCounts.get(db)?.get(ownerId) ?? 0;
}
