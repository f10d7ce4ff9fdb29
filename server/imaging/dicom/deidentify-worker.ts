// A thread behind deidentify-off-thread.ts: de-identifies one DICOM file per message, hashes the result
// and either answers it or writes it to a new file itself.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { writeFileDurablySync } from '../../storage/durable-file.ts';
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
    writeFileDurablySync(file, clean);
    parentPort!.postMessage({ id, size: clean.length, sha256 });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    parentPort!.postMessage({ id, failed: 'write', code, message });
  }
});
