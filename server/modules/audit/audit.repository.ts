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
 * Writes audit events (sign-in, uploads, shares…) to `audit_events`; given a transaction, the event lands
 * with the change it records or not at all.
 */
export function createAuditRepository({ db }: { db: Database }) {
  return {
    async record(event: AuditEvent): Promise<void> {
      await db.insert(auditEvents).values(rowOf(event));
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
