// A thread behind deidentify-off-thread.ts: de-identifies one DICOM file per message, hashes the result
// and either answers it or writes it to a new file itself.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { byteLength, joinBytes } from '../../storage/byte-runs.ts';
import { writeFileDurablySync } from '../../storage/durable-file.ts';
import { UndecodableImageError } from '../volume.ts';
import { deidentifyDicomParts } from './deidentify.ts';

/** A file to clean, transferred (not copied) from the main thread, and the owner whose UIDs it gets. */
interface DeidentifyJob {
  id: number;
  bytes: Uint8Array;
  salt: string;
  /** Where to write the result instead of answering it, refused when larger than `limit`. */
  file?: string;
  limit?: number;
}

parentPort!.on('message', ({ id, bytes, salt, file, limit }: DeidentifyJob) => {
  let clean: Uint8Array[];
  try {
    clean = deidentifyDicomParts(bytes, salt);
  } catch (error) {
    // Only the message of an undecodable file is meant for the user; anything else stays generic.
    const undecodable = error instanceof UndecodableImageError ? error.message : undefined;
    parentPort!.postMessage({ id, failed: 'unreadable', undecodable });
    return;
  }
  // Hashed and written run by run: the cleaned file is never copied whole on its way to disk.
  const hash = createHash('sha256');
  for (const run of clean) hash.update(run);
  const sha256 = hash.digest('hex');
  if (file === undefined) {
    const whole = joinBytes(clean);
    parentPort!.postMessage({ id, bytes: whole, sha256 }, [whole.buffer as ArrayBuffer]);
    return;
  }
  const size = byteLength(clean);
  if (limit !== undefined && size > limit) {
    parentPort!.postMessage({ id, failed: 'too-large' });
    return;
  }
  try {
    writeFileDurablySync(file, joinBytes(clean));
    parentPort!.postMessage({ id, size, sha256 });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    parentPort!.postMessage({ id, failed: 'write', code, message });
  }
});
