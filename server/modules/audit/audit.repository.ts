import { sql } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { auditEvents } from './audit.table.ts';

/** One audit event; `detail` must never hold a password or a token. */
export interface AuditEvent {
  userId: string | null;
  action: string;
  ip: string | null;
  detail?: Record<string, unknown>;
  at?: Date;
}

const rowOf = (event: AuditEvent) => ({
  userId: event.userId,
  action: event.action,
  ip: event.ip,
  detail: event.detail ?? null,
  ...(event.at ? { createdAt: event.at } : {}),
});

/**
 * The insert of one event as a common table expression, to be written by the same statement as the
 * change it records: both land or neither does, in one round trip. Its fields are placeholders, so the
 * statement can be built once and prepared; `auditValues` fills them.
 */
export function auditInsertCte(db: Database) {
  return db.$with('audit_event').as(
    db.insert(auditEvents).values({
      userId: sql.placeholder('auditUserId'),
      action: sql.placeholder('auditAction'),
      ip: sql.placeholder('auditIp'),
      detail: sql.placeholder('auditDetail'),
    }),
  );
}

/** The values of `auditInsertCte`'s placeholders for one event (its moment is the statement's). */
export const auditValues = (event: AuditEvent) => ({
  auditUserId: event.userId,
  auditAction: event.action,
  auditIp: event.ip,
  auditDetail: event.detail ?? null,
});

/** Writes audit events (sign-in, uploads, shares…) to `audit_events`. */
export function createAuditRepository({ db }: { db: Database }) {
  return {
    async record(event: AuditEvent): Promise<void> {
      await db.insert(auditEvents).values(rowOf(event));
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
