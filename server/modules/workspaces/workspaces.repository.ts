import { and, asc, eq, getTableName, isNotNull, sql } from 'drizzle-orm';
import type { MemberItem, WorkspaceItem } from '../../../contract/workspaces.ts';
import type { Database } from '../../db/connect.ts';
import { users } from '../auth/users.table.ts';
import { type WorkspaceRole } from './workspace-roles.ts';
import { lastAdmin, memberNotFound, personalWorkspace } from './workspaces.errors.ts';
import { workspaceMembers, workspaces } from './workspaces.table.ts';

/** The caller's standing in the workspace a request acts in. */
export interface Membership {
  workspaceId: string;
  userId: string;
  role: WorkspaceRole;
  datasetWrite: boolean;
  personal: boolean;
}

/** The name every personal workspace is shown with. */
export const PERSONAL_WORKSPACE_NAME = 'Personal';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const permissionsOf = (datasetWrite: boolean): 'dataset.write'[] => (datasetWrite ? ['dataset.write'] : []);

const membershipColumns = {
  workspaceId: workspaceMembers.workspaceId,
  userId: workspaceMembers.userId,
  role: workspaceMembers.role,
  datasetWrite: workspaceMembers.datasetWrite,
  personalOwnerId: workspaces.personalOwnerId,
};

interface MembershipRow {
  workspaceId: string;
  userId: string;
  role: string;
  datasetWrite: boolean;
  personalOwnerId: string | null;
}

const toMembership = (row: MembershipRow): Membership => ({
  workspaceId: row.workspaceId,
  userId: row.userId,
  role: row.role as WorkspaceRole,
  datasetWrite: row.datasetWrite,
  personal: row.personalOwnerId !== null,
});

/**
 * What a workspace item is made of, over `workspace_members` joined with `workspaces`. The members are counted
 * for the listed workspaces only (an index-only range of the members' primary key each), not grouped over
 * every workspace first.
 */
export const workspaceItemColumns = {
  id: workspaces.id,
  name: workspaces.name,
  personalOwnerId: workspaces.personalOwnerId,
  role: workspaceMembers.role,
  datasetWrite: workspaceMembers.datasetWrite,
  // Both sides named with their table: in a query of one table drizzle would leave the outer column bare.
  n: sql<number>`(select count(*) from ${workspaceMembers} others
    where others.workspace_id = ${sql.identifier(getTableName(workspaceMembers))}.workspace_id)`,
};

/** The order workspaces are listed in: the personal one first, then teams by name. */
export const workspaceItemOrder = [
  sql`${workspaces.personalOwnerId} is null`,
  asc(workspaces.name),
  asc(workspaces.id),
];

/** A row of `workspaceItemColumns` as the API lists it. */
export function toWorkspaceItem(row: {
  id: string;
  name: string;
  personalOwnerId: string | null;
  role: string;
  datasetWrite: boolean;
  n: number;
}): WorkspaceItem {
  return {
    id: row.id,
    name: row.name,
    personal: row.personalOwnerId !== null,
    role: row.role as WorkspaceRole,
    permissions: permissionsOf(row.datasetWrite),
    member_count: Number(row.n),
  };
}

/** Workspaces and their members; every read is by membership, so a stranger's workspace does not exist. */
export function createWorkspacesRepository({ db }: { db: Database }) {
  /** Makes the user's personal workspace (with them as its admin) unless it exists; returns its id. */
  async function ensurePersonal(userId: string): Promise<string> {
    return db.transaction(async (tx) => {
      const [made] = await tx
        .insert(workspaces)
        .values({ name: PERSONAL_WORKSPACE_NAME, personalOwnerId: userId })
        .onConflictDoNothing({ target: workspaces.personalOwnerId })
        .returning({ id: workspaces.id });
      const id =
        made?.id ??
        (await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.personalOwnerId, userId)))[0]!.id;
      await tx.insert(workspaceMembers).values({ workspaceId: id, userId, role: 'admin' }).onConflictDoNothing();
      return id;
    });
  }

  /** The user's workspaces with their role and member count: the personal one first, then teams by name. */
  async function listMemberships(userId: string): Promise<WorkspaceItem[]> {
    const rows = await db
      .select(workspaceItemColumns)
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(eq(workspaceMembers.userId, userId))
      .orderBy(...workspaceItemOrder);
    return rows.map(toWorkspaceItem);
  }

  async function membershipIn(userId: string, workspaceId: string): Promise<Membership | undefined> {
    if (!UUID.test(workspaceId)) return undefined;
    const [row] = await db
      .select(membershipColumns)
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
      .limit(1);
    return row ? toMembership(row) : undefined;
  }

  /** Holds the workspace's member rows until the transaction ends, so two demotions cannot both pass. */
  async function adminCountLocked(tx: Parameters<Parameters<Database['transaction']>[0]>[0], workspaceId: string) {
    const rows = await tx
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(eq(workspaceMembers.workspaceId, workspaceId))
      .for('update');
    return rows.filter((r) => r.role === 'admin').length;
  }

  return {
    ensurePersonal,

    /**
     * The user's membership of the workspace (their personal one when `workspaceId` is undefined), read
     * afresh on every call: a role change or a removal counts from the next request. Undefined when they
     * are not a member, or the workspace does not exist.
     */
    async resolve(userId: string, workspaceId: string | undefined): Promise<Membership | undefined> {
      if (workspaceId !== undefined) return membershipIn(userId, workspaceId);
      const [row] = await db
        .select(membershipColumns)
        .from(workspaceMembers)
        .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
        .where(and(eq(workspaces.personalOwnerId, userId), eq(workspaceMembers.userId, userId)))
        .limit(1);
      if (row) return toMembership(row);
      return membershipIn(userId, await ensurePersonal(userId));
    },

    /** The user's workspaces: the personal one first, then teams by name. */
    async listForUser(userId: string): Promise<WorkspaceItem[]> {
      // Read first: making the personal workspace is a write transaction, needed once per user, not per read.
      const items = await listMemberships(userId);
      if (items.some((item) => item.personal)) return items;
      await ensurePersonal(userId);
      return listMemberships(userId);
    },

    /** Makes a team workspace with its creator as admin; returns its id. */
    async createTeam(creatorId: string, name: string, now: Date): Promise<string> {
      return db.transaction(async (tx) => {
        const [made] = await tx.insert(workspaces).values({ name, createdAt: now }).returning({ id: workspaces.id });
        await tx
          .insert(workspaceMembers)
          .values({ workspaceId: made!.id, userId: creatorId, role: 'admin', createdAt: now });
        return made!.id;
      });
    },

    /** Renames a team workspace; a personal one keeps its name. */
    async rename(membership: Membership, name: string): Promise<void> {
      if (membership.personal) throw personalWorkspace();
      await db.update(workspaces).set({ name }).where(eq(workspaces.id, membership.workspaceId));
    },

    /** Adds a user to a team workspace; a user already there keeps their role. */
    async addMember(workspaceId: string, userId: string, role: WorkspaceRole, now: Date): Promise<void> {
      const [personal] = await db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(and(eq(workspaces.id, workspaceId), isNotNull(workspaces.personalOwnerId)));
      if (personal) throw personalWorkspace();
      await db.insert(workspaceMembers).values({ workspaceId, userId, role, createdAt: now }).onConflictDoNothing();
    },

    /** The workspace's members: admins first, then by name. */
    async members(workspaceId: string): Promise<MemberItem[]> {
      const rows = await db
        .select({
          userId: users.id,
          name: users.name,
          email: users.email,
          role: workspaceMembers.role,
          datasetWrite: workspaceMembers.datasetWrite,
          joinedAt: workspaceMembers.createdAt,
        })
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.userId))
        .where(eq(workspaceMembers.workspaceId, workspaceId))
        .orderBy(sql`${workspaceMembers.role} <> 'admin'`, asc(users.name), asc(users.id));
      return rows.map((row) => ({
        user_id: row.userId,
        name: row.name,
        email: row.email,
        role: row.role as WorkspaceRole,
        permissions: permissionsOf(row.datasetWrite),
        joined_at: Math.floor(row.joinedAt.getTime() / 1000),
      }));
    },

    /** Changes a member's role or permissions; refuses to demote the last admin (409). */
    async updateMember(
      workspaceId: string,
      userId: string,
      changes: { role?: WorkspaceRole; datasetWrite?: boolean },
    ): Promise<void> {
      if (!UUID.test(userId)) throw memberNotFound();
      await db.transaction(async (tx) => {
        const admins = await adminCountLocked(tx, workspaceId);
        const [current] = await tx
          .select({ role: workspaceMembers.role })
          .from(workspaceMembers)
          .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
        if (!current) throw memberNotFound();
        if (current.role === 'admin' && changes.role && changes.role !== 'admin' && admins <= 1) throw lastAdmin();
        await tx
          .update(workspaceMembers)
          .set(changes)
          .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
      });
    },

    /**
     * The workspace's own storage quota (null: the server's default), its row held until `tx` ends, so uploads
     * committed against the quota one after another see each other's bytes. Undefined for an unknown workspace.
     */
    async lockStorageQuota(tx: Database, workspaceId: string): Promise<number | null | undefined> {
      const [row] = await tx
        .select({ quota: workspaces.storageQuotaBytes })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId))
        .for('update');
      return row ? row.quota : undefined;
    },

    /** The workspace's own storage quota in bytes; null takes the server's default (WORKSPACE_QUOTA_BYTES). */
    async storageQuota(workspaceId: string): Promise<number | null> {
      const [row] = await db
        .select({ quota: workspaces.storageQuotaBytes })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId));
      return row?.quota ?? null;
    },

    /** Gives the workspace its own storage quota (a plan's), or back the server's default with null. */
    async setStorageQuota(workspaceId: string, bytes: number | null): Promise<void> {
      await db.update(workspaces).set({ storageQuotaBytes: bytes }).where(eq(workspaces.id, workspaceId));
    },

    /** Removes a member (or lets one leave); refuses to remove the last admin (409). */
    async removeMember(workspaceId: string, userId: string): Promise<void> {
      if (!UUID.test(userId)) throw memberNotFound();
      await db.transaction(async (tx) => {
        const admins = await adminCountLocked(tx, workspaceId);
        const [removed] = await tx
          .delete(workspaceMembers)
          .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
          .returning({ role: workspaceMembers.role });
        if (!removed) throw memberNotFound();
        if (removed.role === 'admin' && admins <= 1) throw lastAdmin();
      });
    },
  };
}

export type WorkspacesRepository = ReturnType<typeof createWorkspacesRepository>;
