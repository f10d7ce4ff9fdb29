import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { InviteItem } from '../../../contract/invites.ts';
import type { Database } from '../../db/connect.ts';
import { users } from '../auth/users.table.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import type { WorkspaceRole } from './workspace-roles.ts';
import { workspaceInvites } from './invites.table.ts';
import { workspaceMembers, workspaces } from './workspaces.table.ts';

/** How long an invitation link works. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const toItem = (row: typeof workspaceInvites.$inferSelect): InviteItem => ({
  id: row.id,
  email: row.email,
  role: row.role as WorkspaceRole,
  expires_at: row.expiresAt.toISOString(),
});

/** A live invitation as its link's holder sees it. */
export interface LiveInvite {
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: WorkspaceRole;
  invitedByName: string | null;
  expiresAt: Date;
}

/** Invitations to team workspaces: made by admins, used once by the invited address before they expire. */
export function createInvitesRepository({ db }: { db: Database }) {
  return {
    /** Records an invitation and returns it with the secret of its link (stored only hashed). */
    async create(
      fields: { workspaceId: string; email: string; role: WorkspaceRole; invitedBy: string },
      now: Date,
    ): Promise<{ invite: InviteItem; token: string }> {
      const token = newToken();
      const [row] = await db
        .insert(workspaceInvites)
        .values({
          ...fields,
          tokenHash: hashToken(token),
          expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
          createdAt: now,
        })
        .returning();
      return { invite: toItem(row!), token };
    },

    /** The workspace's invitations not yet used nor expired, oldest first. */
    async pending(workspaceId: string, now: Date): Promise<InviteItem[]> {
      const rows = await db
        .select()
        .from(workspaceInvites)
        .where(
          and(
            eq(workspaceInvites.workspaceId, workspaceId),
            isNull(workspaceInvites.acceptedAt),
            gt(workspaceInvites.expiresAt, now),
          ),
        )
        .orderBy(asc(workspaceInvites.createdAt));
      return rows.map(toItem);
    },

    /** Withdraws an invitation of the workspace; false when there is no such invitation. */
    async revoke(workspaceId: string, id: string): Promise<boolean> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
      const removed = await db
        .delete(workspaceInvites)
        .where(and(eq(workspaceInvites.workspaceId, workspaceId), eq(workspaceInvites.id, id)))
        .returning({ id: workspaceInvites.id });
      return removed.length > 0;
    },

    /** The invitation a link's secret stands for, while unused and unexpired. */
    async findLive(token: string, now: Date): Promise<LiveInvite | undefined> {
      const [row] = await db
        .select({
          id: workspaceInvites.id,
          workspaceId: workspaceInvites.workspaceId,
          workspaceName: workspaces.name,
          email: workspaceInvites.email,
          role: workspaceInvites.role,
          invitedByName: users.name,
          expiresAt: workspaceInvites.expiresAt,
        })
        .from(workspaceInvites)
        .innerJoin(workspaces, eq(workspaces.id, workspaceInvites.workspaceId))
        .leftJoin(users, eq(users.id, workspaceInvites.invitedBy))
        .where(
          and(
            eq(workspaceInvites.tokenHash, hashToken(token)),
            isNull(workspaceInvites.acceptedAt),
            gt(workspaceInvites.expiresAt, now),
          ),
        )
        .limit(1);
      return row ? { ...row, role: row.role as WorkspaceRole } : undefined;
    },

    /**
     * Uses the invitation for `userId`: marks it used (only one caller can) and makes them a member with its
     * role; someone already a member keeps their role. False when it was used or withdrawn meanwhile.
     */
    async accept(invite: LiveInvite, userId: string, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [used] = await tx
          .update(workspaceInvites)
          .set({ acceptedAt: now })
          .where(and(eq(workspaceInvites.id, invite.id), isNull(workspaceInvites.acceptedAt)))
          .returning({ id: workspaceInvites.id });
        if (!used) return false;
        await tx
          .insert(workspaceMembers)
          .values({ workspaceId: invite.workspaceId, userId, role: invite.role, createdAt: now })
          .onConflictDoNothing();
        return true;
      });
    },
  };
}
