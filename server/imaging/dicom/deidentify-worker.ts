// The thread behind deidentify-off-thread.ts: de-identifies one DICOM file per message and hashes the result.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { UndecodableImageError } from '../volume.ts';
import { deidentifyDicom } from './deidentify.ts';

/** A file to clean, transferred (not copied) from the main thread, and the owner whose UIDs it gets. */
interface DeidentifyJob {
  id: number;
  bytes: Uint8Array;
  salt: string;
}

parentPort!.on('message', ({ id, bytes, salt }: DeidentifyJob) => {
  try {
    const clean = deidentifyDicom(bytes, salt);
    const sha256 = createHash('sha256').update(clean).digest('hex');
    parentPort!.postMessage({ id, bytes: clean, sha256 }, [clean.buffer as ArrayBuffer]);
  } catch (error) {
    // Only the message of an undecodable file is meant for the user; anything else stays generic.
    const undecodable = error instanceof UndecodableImageError ? error.message : undefined;
    parentPort!.postMessage({ id, failed: true, undecodable });
  }
});
