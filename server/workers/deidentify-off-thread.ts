import { runImagingTask } from './imaging-pool.ts';
import type { DeidentificationReport } from '../imaging/dicom/deidentify-report.ts';

/** A de-identified file, the SHA-256 of its bytes and what de-identifying it did. */
export interface CleanDicom {
  bytes: Uint8Array;
  sha256: string;
  report: DeidentificationReport;
}

/** The file could not be de-identified; its message is meant for the uploader. */
export class UnreadableDicomError extends Error {
  constructor(reason = 'This DICOM file could not be read.') {
    super(reason);
    this.name = 'UnreadableDicomError';
  }
}

/**
 * De-identifies a DICOM file (see deidentifyDicomParts) and hashes the result on the imaging pool.
 * Parsing and rewriting a file takes time in proportion to its size, during which no other request would
 * move on the event loop. `input` is transferred to the thread when it owns its whole buffer, so the
 * caller must not use it afterwards; a view into a larger buffer (a pooled Buffer) is copied instead.
 */
export async function deidentifyOffThread(input: Uint8Array, salt: string): Promise<CleanDicom> {
  const own = input.byteOffset === 0 && input.byteLength === input.buffer.byteLength ? input : input.slice();
  const answer = await runImagingTask('deidentify', { bytes: own, salt }, [own.buffer as ArrayBuffer]);
  if ('unreadable' in answer) throw new UnreadableDicomError(answer.unreadable);
  return answer;
}
