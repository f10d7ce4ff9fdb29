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

/**
 * The UID salt of a workspace (see uid-salts.table.ts), made on first use. Two uploads racing to make it both
 * read back the one row that won, so they remap alike.
 */
export async function uidSaltOf(db: Database, workspaceId: string): Promise<string> {
  const salt = await find(db, workspaceId);
  if (salt) return salt;
  await db
    .insert(workspaceUidSalts)
    .values({ workspaceId, salt: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  return (await find(db, workspaceId))!;
}
