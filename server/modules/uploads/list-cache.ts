import { hash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { ContentEncoding } from '../../accept-encoding.ts';
import type { Database } from '../../db/connect.ts';
import { uploadChanges } from './upload-changes.ts';
import type { UploadsRepository } from './uploads.repository.ts';

/** A serialized list, the state of the owner's rows it was made from, and its compressed forms once asked for. */
interface Entry {
  fingerprint: string;
  json: Buffer;
  /** The opaque part of every ETag of this entry (a fingerprint would show row counts and times). */
  tag: string;
  compressed: Partial<Record<ContentEncoding, Promise<Buffer>>>;
}

/** One answer to send: its bytes, their encoding (undefined when sent as they are) and its ETag. */
export interface ListAnswer {
  body: Buffer;
  encoding: ContentEncoding | undefined;
  etag: string;
}

/** The ETag of an entry's answer in `encoding`: one per encoding, since the bytes differ. */
const etagOf = (entry: Entry, encoding: ContentEncoding | undefined) =>
  `"${entry.tag}${encoding ? `-${encoding}` : ''}"`;

/** Below this, compressing saves less than it costs. */
const MIN_COMPRESSED_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

const compressors: Record<ContentEncoding, (json: Buffer) => Promise<Buffer>> = {
  // Quality 5 of 11: most of brotli's gain on JSON for a few milliseconds, paid once per change of the list.
  br: (json) =>
    brotli(json, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    }),
  gzip: (json) => gzipped(json, { level: 6 }),
};

/** Owners whose lists are kept; the least recently used goes first. */
const MAX_OWNERS = 500;

/**
 * GET /uploads as ready-made JSON. Reading and serializing a long list costs tens of milliseconds, so
 * each owner's answer is kept and reused while a cheap aggregate over the owner's rows (count, newest
 * moment, total size, newest id) is unchanged. The check runs on every request against the database,
 * so every replica sees an upload or a deletion made through any other at once. When this process is the
 * database's only user (PGlite, embedded and locked to one process), that query is skipped: the
 * repository counts each owner's inserts and deletes, which is exact and costs nothing. A compressed form
 * is made (off the main thread) the first time a client asks for it and kept with the entry: a
 * thousand-item list is a fifth of a megabyte, and sending it was most of what an answer cost.
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

  async function entryOf(ownerId: string): Promise<Entry> {
    const fingerprint = await fingerprintOf(ownerId);
    const cached = entries.get(ownerId);
    if (cached && cached.fingerprint === fingerprint) {
      // Re-inserted so the map's order stays least-recently-used first.
      entries.delete(ownerId);
      entries.set(ownerId, cached);
      return cached;
    }
    const json = Buffer.from(JSON.stringify(await repo.listForOwner(ownerId)));
    const entry: Entry = { fingerprint, json, tag: hash('sha1', fingerprint, 'base64url'), compressed: {} };
    entries.delete(ownerId);
    entries.set(ownerId, entry);
    if (entries.size > MAX_OWNERS) entries.delete(entries.keys().next().value!);
    return entry;
  }

  return {
    /**
     * The owner's list as UTF-8 JSON, compressed with `encoding` when that is worth it, and its ETag; each
     * form is made once per change of the list, not once per answer.
     */
    async listAnswer(ownerId: string, encoding: ContentEncoding | undefined): Promise<ListAnswer> {
      const entry = await entryOf(ownerId);
      if (!encoding || entry.json.length < MIN_COMPRESSED_BYTES) {
        return { body: entry.json, encoding: undefined, etag: etagOf(entry, undefined) };
      }
      // A failed compression is not kept: the next request tries again.
      const pending = (entry.compressed[encoding] ??= compressors[encoding](entry.json).catch((error: unknown) => {
        delete entry.compressed[encoding];
        throw error;
      }));
      return { body: await pending, encoding, etag: etagOf(entry, encoding) };
    },
  };
}
