// A thread behind deidentify-off-thread.ts: de-identifies one DICOM file per message, hashes the result
// and either answers it or writes it to a new file itself.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { NEW_SYNCED_FILE } from '../../storage/durable-file.ts';
import { UndecodableImageError } from '../volume.ts';
import { deidentifyDicom } from './deidentify.ts';

/** A file to clean, transferred (not copied) from the main thread, and the owner whose UIDs it gets. */
interface DeidentifyJob {
  id: number;
  bytes: Uint8Array;
  salt: string;
  /** Where to write the result instead of answering it, refused when larger than `limit`. */
  file?: string;
  limit?: number;
}

function openNew(file: string): number {
  try {
    return fs.openSync(file, NEW_SYNCED_FILE, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // The folder is made on first use, or again if it was removed from outside.
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return fs.openSync(file, NEW_SYNCED_FILE, 0o644);
  }
}

/**
 * Writes `bytes` to the new `file` with calls that block this thread only: open, write and close here
 * cost one message to and from the main thread, where asking the thread pool costs three round trips
 * through the event loop. A failed write leaves no file behind.
 */
function writeNewFile(file: string, bytes: Uint8Array): void {
  const fd = openNew(file);
  try {
    // A regular file may take fewer bytes than asked (a full disk reports its error on the next call).
    for (let at = 0; at < bytes.length;) at += fs.writeSync(fd, bytes, at, bytes.length - at);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw error;
  }
  fs.closeSync(fd);
}

parentPort!.on('message', ({ id, bytes, salt, file, limit }: DeidentifyJob) => {
  let clean: Uint8Array;
  try {
    clean = deidentifyDicom(bytes, salt);
  } catch (error) {
    // Only the message of an undecodable file is meant for the user; anything else stays generic.
    const undecodable = error instanceof UndecodableImageError ? error.message : undefined;
    parentPort!.postMessage({ id, failed: 'unreadable', undecodable });
    return;
  }
  const sha256 = createHash('sha256').update(clean).digest('hex');
  if (file === undefined) {
    parentPort!.postMessage({ id, bytes: clean, sha256 }, [clean.buffer as ArrayBuffer]);
    return;
  }
  if (limit !== undefined && clean.length > limit) {
    parentPort!.postMessage({ id, failed: 'too-large' });
    return;
  }
  try {
    writeNewFile(file, clean);
    parentPort!.postMessage({ id, size: clean.length, sha256 });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    parentPort!.postMessage({ id, failed: 'write', code, message });
  }
});
