import { atom } from 'nanostores';

/** Whether the next uploads keep their DICOM identifying data (no de-identification on arrival). Off by default. */
export const $keepOriginal = atom(false);

/** Sets the keep-original option of the upload controls. */
export function setKeepOriginal(keep: boolean): void {
  $keepOriginal.set(keep);
}

/**
 * The query that tells the server to keep files as sent, or nothing.
 * @example uploadQuery(true) // '?deidentify=false'
 */
export function uploadQuery(keep: boolean): string {
  return keep ? '?deidentify=false' : '';
}
