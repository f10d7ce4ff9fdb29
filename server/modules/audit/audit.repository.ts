import { randomUUID } from 'node:crypto';
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
 * The insert of `count` events as a common table expression, to be written by the same statement as the
 * changes they record: all land or none does, in one round trip. Its fields are placeholders, so the
 * statement can be built once and prepared; `auditValues` fills those of the event at each index.
 */
export function auditInsertCte(db: Database, count = 1) {
  return db.$with('audit_event').as(
    db.insert(auditEvents).values(
      Array.from({ length: count }, (_, i) => ({
        id: sql.placeholder(`auditId${i}`),
        userId: sql.placeholder(`auditUserId${i}`),
        action: sql.placeholder(`auditAction${i}`),
        ip: sql.placeholder(`auditIp${i}`),
        detail: sql.placeholder(`auditDetail${i}`),
      })),
    ),
  );
}

/**
 * The values of `auditInsertCte`'s placeholders for the event at `index`: its moment is the statement's,
 * its id made here for the reason `valuesOf` in uploads.repository.ts gives.
 */
export const auditValues = (event: AuditEvent, index = 0) => ({
  [`auditId${index}`]: randomUUID(),
  [`auditUserId${index}`]: event.userId,
  [`auditAction${index}`]: event.action,
  [`auditIp${index}`]: event.ip,
  [`auditDetail${index}`]: event.detail ?? null,
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
