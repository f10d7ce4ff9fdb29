import { and, asc, desc, eq, gte, like, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_KINDS,
  kindOfAction,
  type AuditActor,
  type AuditFilters,
  type AuditItem,
} from '../../../contract/audit.ts';
import type { Database } from '../../db/connect.ts';
import { users } from '../auth/users.table.ts';
import { workspaceMembers } from '../workspaces/workspaces.table.ts';
import { auditEvents } from './audit.table.ts';

/** One audit event; `detail` must never hold a password or a token. */
export interface AuditEvent {
  userId: string | null;
  /** The workspace whose log shows it; left out, the `workspace_id` of `detail` when there is one. */
  workspaceId?: string | null;
  action: string;
  ip: string | null;
  detail?: Record<string, unknown>;
  at?: Date;
}

/** Account events that every workspace of the user also shows: a member's sign-ins, for its admins. */
export const SIGN_IN_ACTIONS: readonly string[] = AUDIT_KINDS.sign_in.actions;

const rowOf = (event: AuditEvent) => {
  const named = event.detail?.workspace_id;
  return {
    userId: event.userId,
    workspaceId: event.workspaceId ?? (typeof named === 'string' ? named : null),
    action: event.action,
    ip: event.ip,
    detail: event.detail ?? null,
    ...(event.at ? { createdAt: event.at } : {}),
  };
};

function kindCondition(kind: keyof typeof AUDIT_KINDS): SQL {
  const patterns: readonly string[] = AUDIT_KINDS[kind].actions;
  return or(
    ...patterns.map((p) =>
      p.endsWith('.*') ? like(auditEvents.action, `${p.slice(0, -1)}%`) : eq(auditEvents.action, p),
    ),
  )!;
}

function filterConditions(workspaceId: string, filters: AuditFilters): SQL[] {
  const conditions = [eq(auditEvents.workspaceId, workspaceId)];
  if (filters.actor) conditions.push(eq(auditEvents.userId, filters.actor));
  if (filters.kind) conditions.push(kindCondition(filters.kind));
  if (filters.from) conditions.push(gte(auditEvents.createdAt, new Date(filters.from)));
  if (filters.to) conditions.push(lt(auditEvents.createdAt, new Date(filters.to)));
  return conditions;
}

const listColumns = {
  id: auditEvents.id,
  action: auditEvents.action,
  ip: auditEvents.ip,
  detail: auditEvents.detail,
  createdAt: auditEvents.createdAt,
  actorId: users.id,
  actorName: users.name,
  actorEmail: users.email,
};
type ListRow = {
  id: string;
  action: string;
  ip: string | null;
  detail: Record<string, unknown> | null;
  createdAt: Date;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
};

function toAuditItem(row: ListRow): AuditItem {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    action: row.action,
    label: AUDIT_ACTION_LABELS[row.action] ?? row.action,
    kind: kindOfAction(row.action),
    actor: row.actorId ? { id: row.actorId, name: row.actorName ?? '', email: row.actorEmail ?? '' } : null,
    ip: row.ip,
    detail: row.detail ?? {},
  };
}

/**
 * Writes audit events (sign-in, uploads, shares…) to `audit_events` and reads a workspace's log; given a
 * transaction, the event lands with the change it records or not at all.
 */
export function createAuditRepository({ db }: { db: Database }) {
  function listQuery(workspaceId: string, filters: AuditFilters, extra: SQL[] = []) {
    return db
      .select(listColumns)
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.userId))
      .where(and(...filterConditions(workspaceId, filters), ...extra))
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id));
  }

  return {
    /**
     * The insert of a workspace's event, not run: for a change recorded in the same statement as its event.
     * An account's sign-in, shown in several workspaces, is not one (see `record`).
     */
    insertOf(event: AuditEvent) {
      return db.insert(auditEvents).values(rowOf(event));
    },

    async record(event: AuditEvent): Promise<void> {
      const row = rowOf(event);
      await db.insert(auditEvents).values(row);
      if (row.workspaceId || !row.userId || !SIGN_IN_ACTIONS.includes(row.action)) return;
      // A sign-in is the account's, and also shown to the admins of each workspace the user belongs to now;
      // the e-mail typed on a failed one stays on the account's record only.
      const detail = { ...row.detail };
      delete detail.email;
      const at = row.createdAt ? sql`${row.createdAt.toISOString()}::timestamptz` : sql`now()`;
      await db.execute(sql`
        insert into ${auditEvents} (user_id, workspace_id, action, ip, detail, created_at)
        select ${row.userId}::uuid, ${workspaceMembers.workspaceId}, ${row.action}, ${row.ip},
               ${JSON.stringify(detail)}::jsonb, ${at}
        from ${workspaceMembers} where ${workspaceMembers.userId} = ${row.userId}::uuid`);
    },

    /**
     * One page of a workspace's log, newest first, after the event `cursor` names (an unknown cursor gives
     * an empty page). `next_cursor` is set when more may follow.
     */
    async list(
      workspaceId: string,
      filters: AuditFilters,
      page: { limit: number; cursor?: string },
    ): Promise<{ items: AuditItem[]; next_cursor: string | null }> {
      const extra: SQL[] = [];
      if (page.cursor) {
        // Keyset paging on the list's own order: events recorded meanwhile never shift a page. The anchor is
        // compared in SQL as a row value, keeping the database's microseconds; an unknown cursor compares
        // with NULL and gives an empty page.
        extra.push(
          sql`(${auditEvents.createdAt}, ${auditEvents.id}) < (select anchor.created_at, anchor.id
            from ${auditEvents} anchor where anchor.workspace_id = ${workspaceId} and anchor.id = ${page.cursor})`,
        );
      }
      const rows = await listQuery(workspaceId, filters, extra).limit(page.limit + 1);
      const items = rows.slice(0, page.limit).map(toAuditItem);
      return { items, next_cursor: rows.length > page.limit ? items.at(-1)!.id : null };
    },

    /** Everyone a workspace's log names as an actor (members and former members), by name. */
    async actors(workspaceId: string): Promise<AuditActor[]> {
      return db
        .selectDistinct({ id: users.id, name: users.name, email: users.email })
        .from(auditEvents)
        .innerJoin(users, eq(users.id, auditEvents.userId))
        .where(eq(auditEvents.workspaceId, workspaceId))
        .orderBy(asc(users.name), asc(users.email), asc(users.id));
    },

    /** The newest `limit` events of a workspace's log that match, newest first, for an export. */
    async exportRows(workspaceId: string, filters: AuditFilters, limit: number): Promise<AuditItem[]> {
      return (await listQuery(workspaceId, filters).limit(limit)).map(toAuditItem);
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
