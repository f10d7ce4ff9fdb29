import { atom } from 'nanostores';
import type { WretchError } from 'wretch';
import type { ShareLinkResponse, UploadItem } from '../../contract/uploads.ts';
import { api } from '../lib/api.ts';
import { isPreviewable } from '../lib/preview-types.ts';
import { qcRequest } from '../lib/qc-request.ts';
import { extractQcText, qcErrorMessage } from '../lib/qc-text.ts';
import { loadComments } from './comments.ts';
import { apiPathOf } from './images.ts';
import { noteVerdict } from './library.ts';

/** The preview of the open image. */
export type PreviewState =
  { status: 'loading' } | { status: 'ready'; url: string } | { status: 'unsupported' } | { status: 'failed' };

/** The quality check of the open image. */
export type QcState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; text: string }
  | { status: 'empty' }
  | { status: 'failed'; message: string };

/** Copy URL's feedback. */
export type ShareState =
  | { status: 'idle' }
  | { status: 'working' }
  | { status: 'copied'; url: string }
  | { status: 'shown'; url: string }
  | { status: 'failed'; message: string };

/** The image whose details modal is open. */
export const $detailsItem = atom<UploadItem | undefined>(undefined);
export const $preview = atom<PreviewState>({ status: 'unsupported' });
export const $qc = atom<QcState>({ status: 'idle' });
export const $share = atom<ShareState>({ status: 'idle' });

// Each opening gets a number, so an answer for an image closed meanwhile is dropped.
let opening = 0;

function revokePreview(): void {
  const preview = $preview.get();
  if (preview.status === 'ready') URL.revokeObjectURL(preview.url);
}

/** Opens the modal for an image and starts loading its preview (as a blob, with the bearer token). */
export async function openDetails(item: UploadItem): Promise<void> {
  revokePreview();
  const current = ++opening;
  $detailsItem.set(item);
  $qc.set({ status: 'idle' });
  $share.set({ status: 'idle' });
  if (!isPreviewable(item.extension)) {
    $preview.set({ status: 'unsupported' });
    return;
  }
  $preview.set({ status: 'loading' });
  try {
    // Browsers cannot draw TIFF: the server renders those to PNG; every other type is shown as stored.
    const path = /^\.tiff?$/i.test(item.extension) ? `${apiPathOf(item.url)}/preview.png` : apiPathOf(item.url);
    const blob = await api.get(path).blob();
    if (current !== opening) return;
    $preview.set({ status: 'ready', url: URL.createObjectURL(blob) });
  } catch {
    if (current === opening) $preview.set({ status: 'failed' });
  }
}

/** Marks a preview that the browser could not decode (a TIFF in most browsers). */
export function previewFailed(): void {
  revokePreview();
  $preview.set({ status: 'failed' });
}

/** Closes the modal and frees the preview's memory. */
export function closeDetails(): void {
  opening++;
  revokePreview();
  $preview.set({ status: 'unsupported' });
  $detailsItem.set(undefined);
}

/** Runs the language-model quality check; the server adds a result to the image's comments as the engine's. */
export async function checkQuality(item: UploadItem): Promise<void> {
  const current = opening;
  $qc.set({ status: 'running' });
  try {
    const answer = await api.post(qcRequest(item.url), '/llm/generate-messages').json<unknown>();
    if (current !== opening) return;
    const text = extractQcText(answer);
    if (!text) return $qc.set({ status: 'empty' });
    $qc.set({ status: 'done', text });
    const verdict = (answer as { qc?: { verdict?: unknown } }).qc?.verdict;
    if (verdict === 'pass' || verdict === 'review' || verdict === 'fail') noteVerdict(item.stored_filename, verdict);
    await loadComments(item.stored_filename);
  } catch (error) {
    if (current !== opening) return;
    const wretchError = error as WretchError;
    $qc.set({ status: 'failed', message: qcErrorMessage(wretchError.json ?? wretchError.text) });
  }
}

/** Makes a 24-hour signed link to the image and copies it; shows it when the clipboard refuses. */
export async function copyShareLink(item: UploadItem): Promise<void> {
  $share.set({ status: 'working' });
  let link: ShareLinkResponse;
  try {
    link = await api.post(undefined, `${apiPathOf(item.url)}/share-links`).json<ShareLinkResponse>();
  } catch (error) {
    const detail = (error as WretchError).json?.detail;
    return $share.set({ status: 'failed', message: typeof detail === 'string' ? detail : 'Could not create a link' });
  }
  try {
    await navigator.clipboard.writeText(link.url);
    $share.set({ status: 'copied', url: link.url });
  } catch {
    $share.set({ status: 'shown', url: link.url });
  }
}
