import type { Database } from '../../db/connect.ts';
import { tooLarge, type HttpError } from '../../http-errors.ts';
import { quotaExceededMessage } from '../../../contract/usage.ts';
import { createUploadsRepository } from '../uploads/uploads.repository.ts';
import { createWorkspacesRepository } from '../workspaces/workspaces.repository.ts';

/** A workspace's storage: bytes its images take and the most they may take. */
export interface StorageUsage {
  usedBytes: number;
  quotaBytes: number;
}

/** The 413 of an upload that does not fit: its detail says how much is left. */
export function overQuota(usage: StorageUsage): HttpError {
  return tooLarge(quotaExceededMessage(Math.max(0, usage.quotaBytes - usage.usedBytes), usage.quotaBytes));
}

/**
 * The storage quota of workspaces: read, checked before an upload's body is read, and held at commit. The
 * usage is the sum of the workspace's stored sizes, so deleting an image frees its bytes with nothing to
 * keep in step.
 */
export function createStorageQuota({ db, defaultQuotaBytes }: { db: Database; defaultQuotaBytes: number }) {
  const uploads = createUploadsRepository({ db });
  const workspaces = createWorkspacesRepository({ db });
  return {
    /** What the workspace uses and may use now. */
    async usage(workspaceId: string): Promise<StorageUsage> {
      const [own, usedBytes] = await Promise.all([
        workspaces.storageQuota(workspaceId),
        uploads.usedBytes(workspaceId),
      ]);
      return { usedBytes, quotaBytes: own ?? defaultQuotaBytes };
    },

    /**
     * Refuses (413) an upload whose declared size alone is more than the workspace has left, before any byte of
     * it is read. `slackBytes` is what the envelope (multipart framing) and cleaning on arrival may take away.
     */
    async precheck(workspaceId: string, declaredBytes: number, slackBytes: number): Promise<void> {
      const usage = await this.usage(workspaceId);
      if (declaredBytes - slackBytes > usage.quotaBytes - usage.usedBytes) throw overQuota(usage);
    },

    /**
     * Runs `insert` (the rows of `bytes` stored bytes) in one transaction with the workspace's row locked, after
     * checking those bytes fit: concurrent commits take turns, each sees the bytes the ones before it added,
     * so the quota is never passed by a byte, on PGlite and PostgreSQL alike. Throws the 413 when they do not fit.
     */
    async commit(workspaceId: string, bytes: number, insert: (tx: Database) => Promise<void>): Promise<void> {
      await db.transaction(async (tx) => {
        const own = await workspaces.lockStorageQuota(tx, workspaceId);
        // Read after the lock, in a statement of its own: it sees every commit that held the lock before.
        const usage = { usedBytes: await uploads.usedBytes(workspaceId, tx), quotaBytes: own ?? defaultQuotaBytes };
        if (usage.usedBytes + bytes > usage.quotaBytes) throw overQuota(usage);
        await insert(tx);
      });
    },
  };
}

/** See createStorageQuota. */
export type StorageQuota = ReturnType<typeof createStorageQuota>;
