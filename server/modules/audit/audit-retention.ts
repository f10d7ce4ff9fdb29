import type { FastifyInstance } from 'fastify';
import { lt } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { auditEvents } from './audit.table.ts';

/** How long audit events are kept (the privacy policy's one year). */
export const AUDIT_RETENTION_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Deletes the audit events recorded before `before`; resolves to how many went. */
export async function pruneAuditEvents(db: Database, before: Date): Promise<number> {
  const removed = await db
    .delete(auditEvents)
    .where(lt(auditEvents.createdAt, before))
    .returning({ id: auditEvents.id });
  return removed.length;
}

/** Prunes events older than AUDIT_RETENTION_DAYS when the server starts, then once a day. */
export function keepAuditEventsOneYear(app: FastifyInstance): void {
  const run = async () => {
    try {
      const removed = await pruneAuditEvents(app.db, new Date(app.clock().getTime() - AUDIT_RETENTION_DAYS * DAY_MS));
      if (removed) app.log.info({ removed }, 'removed audit events older than the retention period');
    } catch (error) {
      app.log.error({ err: error }, 'pruning old audit events failed');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await run();
    timer = setInterval(() => void run(), DAY_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
