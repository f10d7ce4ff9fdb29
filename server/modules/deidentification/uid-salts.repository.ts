import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { workspaceUidSalts } from './uid-salts.table.ts';

async function find(db: Database, workspaceId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ salt: workspaceUidSalts.salt })
    .from(workspaceUidSalts)
    .where(eq(workspaceUidSalts.workspaceId, workspaceId))
    .limit(1);
  return row?.salt;
}

/** Salts already read, per database: a salt is never changed once made, so it is read once per process. */
const known = new WeakMap<Database, Map<string, string>>();
/** Enough workspaces for any one server; past it the cache starts again rather than grow without end. */
const MAX_KNOWN = 10_000;

async function stored(db: Database, workspaceId: string): Promise<string> {
  const salt = await find(db, workspaceId);
  if (salt) return salt;
  await db
    .insert(workspaceUidSalts)
    .values({ workspaceId, salt: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  return (await find(db, workspaceId))!;
}

/**
 * The UID salt of a workspace (see uid-salts.table.ts), made on first use. Two uploads racing to make it both
 * read back the one row that won, so they remap alike (in this process or another).
 */
export async function uidSaltOf(db: Database, workspaceId: string): Promise<string> {
  let salts = known.get(db);
  if (!salts) known.set(db, (salts = new Map()));
  const cached = salts.get(workspaceId);
  if (cached) return cached;
  const salt = await stored(db, workspaceId);
  if (salts.size >= MAX_KNOWN) salts.clear();
  salts.set(workspaceId, salt);
  return salt;
}
