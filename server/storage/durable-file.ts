import fs from 'node:fs';
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';

// Looked up on each call rather than bound once, so a test can watch the flushes.
const open = (file: string, flags: string | number = 'w') =>
  new Promise<number>((resolve, reject) => fs.open(file, flags, (error, fd) => (error ? reject(error) : resolve(fd))));
const write = (fd: number, bytes: Uint8Array, from: number) =>
  new Promise<number>((resolve, reject) =>
    fs.write(fd, bytes, from, bytes.length - from, null, (error, written) =>
      error ? reject(error) : resolve(written),
    ),
  );
const writev = (fd: number, buffers: Buffer[]) =>
  new Promise<number>((resolve, reject) =>
    fs.writev(fd, buffers, (error, written) => (error ? reject(error) : resolve(written))),
  );
const onFd = (call: (fd: number, done: (error: Error | null) => void) => void) => (fd: number) =>
  new Promise<void>((resolve, reject) => call(fd, (error) => (error ? reject(error) : resolve())));
const fdatasync = onFd((fd, done) => fs.fdatasync(fd, done));
const fsync = onFd((fd, done) => fs.fsync(fd, done));
const close = onFd((fd, done) => fs.close(fd, done));

/** Bytes written between two background flushes of a large file. */
export const FLUSH_EVERY_BYTES = 32 * 1024 * 1024;

/**
 * A file writer whose `finish` means the bytes are on disk. A large file is flushed in the background
 * every FLUSH_EVERY_BYTES while it is still arriving, so the disk works alongside the network and the
 * closing fsync has only the tail left: flushed only at the end, 1 GiB kept the upload waiting about
 * half a second more. One descriptor serves the writes and the sync, and is closed once neither runs.
 */
export function durableFileWriter(file: string, flushEvery = FLUSH_EVERY_BYTES): Writable {
  let fd = -1;
  let unflushed = 0;
  let flushing: Promise<void> | undefined;
  let flushError: Error | undefined;
  // A destroy can come while a write runs on the thread pool; the descriptor stays open until it ends.
  let writing: Promise<void> | undefined;

  const flushInBackground = () => {
    unflushed = 0;
    flushing = fdatasync(fd).then(
      () => void (flushing = undefined),
      (error: Error) => {
        flushError = error;
        flushing = undefined;
      },
    );
  };

  const writeAll = async (buffers: Buffer[]) => {
    let pending = buffers;
    while (pending.length > 0) {
      // A regular file may take fewer bytes than asked (a full disk reports its error on the next call).
      let written = await writev(fd, pending);
      unflushed += written;
      const rest: Buffer[] = [];
      for (const buffer of pending) {
        if (written >= buffer.length) written -= buffer.length;
        else {
          rest.push(buffer.subarray(written));
          written = 0;
        }
      }
      pending = rest;
    }
    if (flushError) throw flushError;
    if (unflushed >= flushEvery && !flushing) flushInBackground();
  };

  const done = (callback: (error?: Error | null) => void) => (work: Promise<unknown>) =>
    work.then(() => callback(), callback);

  return new Writable({
    highWaterMark: 1024 * 1024,
    construct(callback) {
      done(callback)(open(file).then((opened) => void (fd = opened)));
    },
    writev(chunks, callback) {
      writing = writeAll(chunks.map(({ chunk }) => chunk as Buffer));
      done(callback)(writing);
    },
    final(callback) {
      done(callback)(
        (async () => {
          await flushing;
          if (flushError) throw flushError;
          await fsync(fd);
        })(),
      );
    },
    destroy(error, callback) {
      const closing = (async () => {
        await writing?.catch(() => undefined);
        await flushing;
        if (fd >= 0) await close(fd);
      })();
      closing.then(
        () => callback(error),
        (closeError: Error) => callback(error ?? closeError),
      );
    },
  });
}

/** A new file whose every write returns once its bytes are on disk; fails if the file exists. */
const NEW_SYNCED_FILE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_DSYNC;

/**
 * Writes bytes held in memory to a new file and returns once they are on disk: the same guarantee as
 * `durableFileWriter`, without a stream to set up for an object that is already whole (a DICOM slice).
 * The file is opened for synchronous writes, so open, write and close are the only calls: each call is
 * a hand-off to the thread pool, and for a small file they cost more than the write.
 */
export async function writeFileDurably(file: string, bytes: Uint8Array): Promise<void> {
  const fd = await open(file, NEW_SYNCED_FILE);
  let whole = false;
  try {
    // A regular file may take fewer bytes than asked (a full disk reports its error on the next call).
    for (let at = 0; at < bytes.length;) at += await write(fd, bytes, at);
    whole = true;
  } finally {
    await close(fd).finally(() => (whole ? undefined : rm(file, { force: true })));
  }
}
