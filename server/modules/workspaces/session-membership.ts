import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { hashToken } from '../auth/tokens.ts';
import { sessions } from '../auth/sessions.table.ts';
import { users } from '../auth/users.table.ts';
import { liveSessionColumns, liveSessionWhere, type LiveSessionRow } from '../auth/sessions.repository.ts';
import type { WorkspaceRole } from './workspace-roles.ts';
import type { WorkspaceItem } from '../../../contract/workspaces.ts';
import { toWorkspaceItem, workspaceItemColumns, workspaceItemOrder, type Membership } from './workspaces.repository.ts';
import { workspaceMembers, workspaces } from './workspaces.table.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const membershipColumns = {
  memberWorkspaceId: workspaceMembers.workspaceId,
  role: workspaceMembers.role,
  datasetWrite: workspaceMembers.datasetWrite,
  personalOwnerId: workspaces.personalOwnerId,
};

/** A live session's row with the caller's membership, whose columns are null when they have none. */
type SessionMembershipRow = LiveSessionRow & {
  memberWorkspaceId: string | null;
  role: string | null;
  datasetWrite: boolean | null;
  personalOwnerId: string | null;
};

/**
 * The session behind a bearer token and the caller's membership of a workspace, read in one statement: every
 * request inside a workspace needs both, and on the embedded PGlite each statement costs milliseconds of the
 * server's own CPU. Nothing is cached: a revoked session or a removed member counts from the next request.
 */
export function createSessionMembershipReader({ db }: { db: Database }) {
  // Both built once: they run on nearly every request.
  const inNamed = db
    .select({ ...liveSessionColumns, ...membershipColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(
      workspaceMembers,
      and(eq(workspaceMembers.userId, users.id), eq(workspaceMembers.workspaceId, sql.placeholder('workspaceId'))),
    )
    .leftJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(liveSessionWhere())
    .limit(1)
    .prepare('session_membership_named');
  const inPersonal = db
    .select({ ...liveSessionColumns, ...membershipColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(workspaces, eq(workspaces.personalOwnerId, users.id))
    .leftJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, users.id)),
    )
    .where(liveSessionWhere())
    .limit(1)
    .prepare('session_membership_personal');

  const allOf = db
    .select({ session: liveSessionColumns, item: workspaceItemColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(workspaceMembers, eq(workspaceMembers.userId, users.id))
    .leftJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(liveSessionWhere())
    .orderBy(...workspaceItemOrder)
    .prepare('session_workspaces');

  return {
    /**
     * The live session of `token` (undefined when unknown, revoked or past its end) with every workspace the
     * caller is a member of, the personal one first, then teams by name (none yet for a new account).
     */
    async workspacesOf(
      token: string,
      now: Date,
    ): Promise<{ session: LiveSessionRow; items: WorkspaceItem[] } | undefined> {
      const rows = await allOf.execute({ tokenHash: hashToken(token), now });
      if (rows.length === 0) return undefined;
      // A session without a membership comes as one row whose workspace columns are null.
      const items = rows.flatMap(({ item }) =>
        item.id === null
          ? []
          : [
              toWorkspaceItem({
                ...item,
                id: item.id,
                name: item.name!,
                role: item.role!,
                datasetWrite: item.datasetWrite!,
              }),
            ],
      );
      return { session: rows[0]!.session, items };
    },

    /**
     * The live session of `token` (undefined when unknown, revoked or past its end) with the caller's
     * membership of `workspaceId`, or of their personal workspace when it is undefined (undefined when they
     * are not a member, the workspace does not exist, or the personal one is not made yet).
     */
    async read(
      token: string,
      workspaceId: string | undefined,
      now: Date,
    ): Promise<{ session: LiveSessionRow; membership: Membership | undefined } | undefined> {
      const tokenHash = hashToken(token);
      let row: SessionMembershipRow | undefined;
      if (workspaceId === undefined) [row] = await inPersonal.execute({ tokenHash, now });
      // A name that is not a UUID names no workspace; the session is still checked first (401 before 404).
      else [row] = await inNamed.execute({ tokenHash, now, workspaceId: UUID.test(workspaceId) ? workspaceId : null });
      if (!row) return undefined;
      const membership =
        row.memberWorkspaceId === null
          ? undefined
          : {
              workspaceId: row.memberWorkspaceId,
              userId: row.id,
              role: row.role as WorkspaceRole,
              datasetWrite: row.datasetWrite!,
              personal: row.personalOwnerId !== null,
            };
      return { session: row, membership };
    },
  };
}

/** The one-statement reader of a session and a membership. */
export type SessionMembershipReader = ReturnType<typeof createSessionMembershipReader>;
