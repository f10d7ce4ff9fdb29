import { hash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { uploadChanges } from './upload-changes.ts';
import type { UploadsRepository } from './uploads.repository.ts';

/** A serialized list and the state of the owner's rows it was made from. */
interface Entry {
  fingerprint: string;
  json: Buffer;
  etag: string;
}

/** An opaque ETag for a fingerprint (which would otherwise show row counts and times). */
const etagOf = (fingerprint: string) => `"${hash('sha1', fingerprint, 'base64url')}"`;

/** Owners whose lists are kept; the least recently used goes first. */
const MAX_OWNERS = 500;

/**
 * GET /uploads as ready-made JSON. Reading and serializing a long list costs tens of milliseconds, so
 * each owner's answer is kept and reused while a cheap aggregate over the owner's rows (count, newest
 * moment, total size, newest id) is unchanged. The check runs on every request against the database,
 * so every replica sees an upload or a deletion made through any other at once. When this process is the
 * database's only user (PGlite, embedded and locked to one process), that query is skipped: the
 * repository counts each owner's inserts and deletes, which is exact and costs nothing.
 */
export function createUploadListCache({
  db,
  repo,
  onlyUser,
}: {
  db: Database;
  repo: UploadsRepository;
  /** True when no other process can change the database (PGlite). */
  onlyUser: boolean;
}) {
  const entries = new Map<string, Entry>();
  // Counts restart with the process; this keeps a tag (ETag) of an earlier run from matching a new list.
  const run = randomUUID();

  async function fingerprintOf(ownerId: string): Promise<string> {
    if (onlyUser) return `${run}:${uploadChanges.count(db, ownerId)}`;
    const result = await db.execute<{ fingerprint: string }>(
      sql`select count(*) || ':' || coalesce(max(created_at)::text, '') || ':' || coalesce(sum(size_bytes), 0)
            || ':' || coalesce(max(id::text), '') as fingerprint
          from uploads where owner_id = ${ownerId}`,
    );
    const rows = (result as unknown as { rows?: { fingerprint: string }[] }).rows ?? (result as unknown as []);
    return rows[0]?.fingerprint ?? '';
  }

  return {
    /** The owner's list as UTF-8 JSON bytes and its ETag, both made once per change, not per answer. */
    async listJson(ownerId: string): Promise<{ json: Buffer; etag: string }> {
      const fingerprint = await fingerprintOf(ownerId);
      const cached = entries.get(ownerId);
      if (cached && cached.fingerprint === fingerprint) {
        // Re-inserted so the map's order stays least-recently-used first.
        entries.delete(ownerId);
        entries.set(ownerId, cached);
        return cached;
      }
      const json = Buffer.from(JSON.stringify(await repo.listForOwner(ownerId)));
      const entry = { fingerprint, json, etag: etagOf(fingerprint) };
      entries.delete(ownerId);
      entries.set(ownerId, entry);
      if (entries.size > MAX_OWNERS) entries.delete(entries.keys().next().value!);
      return entry;
    },
  };
}
