import { atom, computed } from 'nanostores';
import { tooLargeMessage } from '../../contract/uploads.ts';
import { apiBase } from '../lib/api-base.ts';
import { sendFileWithProgress, UPLOAD_STALL_MS, type XhrUploadResult } from '../lib/xhr-upload.ts';
import { $keepOriginal, uploadQuery } from './deidentification.ts';
import { $uploadLimit } from './images.ts';
import { reloadImageLists } from './library.ts';
import { $token, clearSession } from './session.ts';
import { groupUploads, type UploadBatch } from './volume-series-upload.ts';

/** One file being (or just) uploaded. */
export interface UploadJob {
  id: number;
  name: string;
  loaded: number;
  total: number;
  status: 'uploading' | 'done' | 'failed' | 'cancelled';
  error?: string;
}

/** Every upload started since the page opened, oldest first. */
export const $uploadJobs = atom<UploadJob[]>([]);

/** Whether any upload is still running ('Uploading...'). */
export const $uploading = computed($uploadJobs, (jobs) => jobs.some((j) => j.status === 'uploading'));

const aborters = new Map<number, () => void>();
let nextId = 1;

function update(id: number, patch: Partial<UploadJob>): void {
  $uploadJobs.set($uploadJobs.get().map((job) => (job.id === id ? { ...job, ...patch } : job)));
}

function failureMessage(result: XhrUploadResult): string {
  if (result.kind === 'stalled') {
    return `Upload stalled: no data was sent for ${UPLOAD_STALL_MS / 1000} seconds. Check your connection and try again.`;
  }
  if (result.kind === 'done') {
    const detail = (result.body as { detail?: unknown } | undefined)?.detail;
    if (typeof detail === 'string' && detail) return detail;
  }
  return 'Upload failed';
}

async function runUpload(batch: UploadBatch): Promise<void> {
  const id = nextId++;
  const limit = $uploadLimit.get();
  const size = batch.files.reduce((sum, file) => sum + file.size, 0);
  if (limit !== undefined && size > limit) {
    // Refused here: the browser would otherwise send gigabytes only to read a 413.
    const job: UploadJob = { id, name: batch.name, loaded: 0, total: size, status: 'failed' };
    $uploadJobs.set([...$uploadJobs.get(), { ...job, error: tooLargeMessage(limit) }]);
    return;
  }
  $uploadJobs.set([...$uploadJobs.get(), { id, name: batch.name, loaded: 0, total: size, status: 'uploading' }]);
  const upload = sendFileWithProgress(
    `${apiBase}${batch.route}${uploadQuery($keepOriginal.get())}`,
    batch.files,
    $token.get(),
    (loaded, total) => update(id, { loaded, total }),
  );
  aborters.set(id, upload.abort);
  const result = await upload.result;
  aborters.delete(id);
  if (result.kind === 'done' && result.status === 401) {
    // The same rule as every other call (SPEC §8): the session is gone.
    clearSession();
    window.location.assign('/login');
    return;
  }
  if (result.kind === 'done' && result.status >= 200 && result.status < 300) {
    // Progress events count the multipart envelope too; a finished upload is simply whole.
    update(id, { status: 'done', loaded: size, total: size });
  } else if (result.kind === 'aborted') {
    update(id, { status: 'cancelled' });
  } else {
    update(id, { status: 'failed', error: failureMessage(result) });
  }
}

/** Uploads the files side by side, each with its own progress, then reloads the list once all end. */
export async function uploadFiles(files: readonly File[]): Promise<void> {
  if (files.length === 0) return;
  await Promise.all(groupUploads(files).map(runUpload));
  if (!$uploading.get()) await reloadImageLists();
}

/** Stops one running upload; nothing of it is kept on the server. */
export function cancelUpload(id: number): void {
  aborters.get(id)?.();
}

/** Removes finished, failed and cancelled uploads from the progress list. */
export function clearFinishedUploads(): void {
  $uploadJobs.set($uploadJobs.get().filter((job) => job.status === 'uploading'));
}
