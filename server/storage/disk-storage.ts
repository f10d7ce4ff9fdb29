import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { meteredBody } from './metered-body.ts';
import { assertSafeKey, TooLargeError, type Storage } from './storage.ts';

/**
 * Local-disk storage under `root`. A stream goes to a temporary file, is flushed and renamed into place, so
 * a crash never leaves half an object under a key; bytes held in memory go to a new key in one synced write.
 */
export function createDiskStorage(root: string): Storage {
  const tmpDir = path.join(root, '.tmp');
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  // Folders already made: two mkdir calls per write cost more than the write itself for a small file.
  const madeFolders = new Set<string>();
  const makeFolder = async (folder: string) => {
    if (madeFolders.has(folder)) return;
    await mkdir(folder, { recursive: true });
    madeFolders.add(folder);
  };
  /** Runs `attempt`, which writes into `file`'s folder, again once if that folder was removed from outside. */
  const inFolderOf = async <T>(file: string, attempt: () => Promise<T>): Promise<T> => {
    await makeFolder(path.dirname(file));
    return attempt().catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      madeFolders.clear();
      await makeFolder(path.dirname(file));
      return attempt();
    });
  };

  return {
    async put(key, body, options = {}) {
      const target = fileOf(key);
      // A new key no reader knows of yet (see Storage.put): no temporary file and no rename needed.
      if (body instanceof Uint8Array) return inFolderOf(target, () => writeHeld(target, body, options));
      await makeFolder(tmpDir);
      const temp = path.join(tmpDir, randomUUID());
      try {
        const written = await writeStream(temp, body, options.limit);
        await inFolderOf(target, () => rename(temp, target));
        return written;
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },

    async get(key, range) {
      const file = fileOf(key);
      await stat(file);
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },

    async stat(key) {
      try {
        const info = await stat(fileOf(key));
        return { size: info.size, modified: info.mtime };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async delete(key) {
      await rm(fileOf(key), { force: true });
    },

    async *list(prefix) {
      const folder = path.join(root, prefix);
      let names: string[];
      try {
        names = await readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for (const name of names) {
        const info = await stat(path.join(folder, name)).catch(() => undefined);
        if (info?.isFile()) yield { key: `${prefix.replace(/\/?$/, '/')}${name}`, modified: info.mtime };
      }
    },

    async sweepUnfinished(before) {
      let removed = 0;
      for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
        const file = path.join(tmpDir, name);
        const info = await stat(file).catch(() => undefined);
        if (!info || info.mtime >= before) continue;
        await rm(file, { force: true });
        removed++;
      }
      return removed;
    },

    async check() {
      await mkdir(tmpDir, { recursive: true });
      const probe = path.join(tmpDir, `health-${randomUUID()}`);
      await writeFile(probe, 'ok');
      await rm(probe, { force: true });
    },
  };
}

/** Streams `body` to `file`, counting, limiting and hashing it on the way; resolves once it is on disk. */
async function writeStream(file: string, body: Readable, limit: number | undefined) {
  const meter = meteredBody(limit);
  // `flush` syncs the file before it is closed, and the pipeline waits for the close.
  await pipeline(body, meter.stream, createWriteStream(file, { flush: true, highWaterMark: 1024 * 1024 }));
  return { size: meter.size(), sha256: await meter.digest() };
}

/** Writes bytes already in memory to `file`, hashing them first unless their hash is known. */
async function writeHeld(file: string, bytes: Uint8Array, { limit, sha256 }: { limit?: number; sha256?: string }) {
  if (limit !== undefined && bytes.length > limit) throw new TooLargeError(limit);
  const digest = sha256 ?? createHash('sha256').update(bytes).digest('hex');
  // A new key only ('wx' fails if the file exists), synced before this resolves; a partial file is removed.
  await writeFile(file, bytes, { flag: 'wx', flush: true }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') await rm(file, { force: true });
    throw error;
  });
  return { size: bytes.length, sha256: digest };
}

/** Reads a whole stream into one buffer; for small objects only (previews, metadata). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
