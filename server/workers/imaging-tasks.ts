// The imaging work run on the pool of imaging-pool.ts: each export is one task, bytes in and bytes out.
// Nothing here touches storage: the main thread writes what a task answers.
import { createHash } from 'node:crypto';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { deidentifyDicomWithReport } from '../imaging/dicom/deidentify.ts';
import type { DeidentificationReport } from '../imaging/dicom/deidentify-report.ts';
import { UndecodableImageError } from '../imaging/volume.ts';
import { joinBytes } from '../storage/byte-runs.ts';

/** A file to de-identify and the owner whose UIDs it gets. */
export interface DeidentifyTask {
  bytes: Uint8Array;
  salt: string;
}

/** The cleaned file, its SHA-256 and what cleaning did, or why it could not be cleaned (a message meant for the uploader). */
export type DeidentifyAnswer =
  { bytes: Uint8Array; sha256: string; report: DeidentificationReport } | { unreadable: string | undefined };

/** De-identifies one DICOM file (PS3.15 Basic Profile, see deidentify.ts) and hashes the result. */
export function deidentify({ bytes, salt }: DeidentifyTask): DeidentifyAnswer {
  let clean: Uint8Array[];
  let report: DeidentificationReport;
  try {
    ({ parts: clean, report } = deidentifyDicomWithReport(bytes, salt));
  } catch (error) {
    // Only the message of an undecodable file is meant for the user; anything else stays generic.
    return { unreadable: error instanceof UndecodableImageError ? error.message : undefined };
  }
  const hash = createHash('sha256');
  for (const run of clean) hash.update(run);
  const answer = { bytes: joinBytes(clean), sha256: hash.digest('hex'), report };
  return transferred(answer, answer.bytes.buffer as ArrayBuffer);
}

/** `answer` as a task returns it, with `buffer` moved to the main thread instead of copied. */
function transferred<T extends object>(answer: T, buffer: ArrayBuffer): T {
  return move({
    get [transferableSymbol]() {
      return [buffer];
    },
    get [valueSymbol]() {
      return answer;
    },
  }) as unknown as T;
}
