import { atom } from 'nanostores';
import type { WretchError } from 'wretch';
import type { PreviewAxis } from '../../contract/imaging.ts';
import type { ImageMetadata } from '../../contract/previews.ts';
import type { QcResultItem } from '../../contract/qc.ts';
import type { UploadItem } from '../../contract/uploads.ts';
import { api, errorMessage } from '../lib/api.ts';
import { previewPath } from '../lib/volume-preview-types.ts';
import { $detailsItem, $qc } from './details.ts';

/** The server-rendered preview of a DICOM, NIfTI or NRRD in the details modal. */
export type VolumePreviewState =
  | { status: 'loading' }
  | {
      status: 'ready';
      url: string;
      slice: number;
      count: number;
      axis: PreviewAxis;
      /** Which volume of a 4D image is shown, from 0, and how many there are (1 for a 3D image). */
      volume: number;
      volumes: number;
    }
  | { status: 'unsupported' }
  | { status: 'failed' };

/** What the server decoded about the open image. */
export type MetadataState = { status: 'loading' } | { status: 'ready'; metadata: ImageMetadata } | { status: 'none' };

/** Stored checks of the open image, newest first. */
export type QcHistoryState =
  { status: 'loading' } | { status: 'ready'; items: QcResultItem[] } | { status: 'failed'; message: string };

export const $volumePreview = atom<VolumePreviewState>({ status: 'loading' });
export const $imageMetadata = atom<MetadataState>({ status: 'loading' });
export const $qcHistory = atom<QcHistoryState>({ status: 'loading' });

// Slider moves fire many requests; only the latest one may land.
let request = 0;

function release(): void {
  const state = $volumePreview.get();
  if (state.status === 'ready') URL.revokeObjectURL(state.url);
}

/** Loads one slice of the open volume (the middle one when `slice` is undefined), of volume `volume` of a 4D image. */
export async function showSlice(
  item: UploadItem,
  axis: PreviewAxis = 'axial',
  slice?: number,
  volume?: number,
): Promise<void> {
  const current = ++request;
  const before = $volumePreview.get();
  if (before.status !== 'ready') $volumePreview.set({ status: 'loading' });
  try {
    const response = await api.get(previewPath(item.stored_filename, axis, slice, volume)).res();
    const blob = await response.blob();
    if (current !== request) return;
    release();
    $volumePreview.set({
      status: 'ready',
      url: URL.createObjectURL(blob),
      slice: Number(response.headers.get('x-slice') ?? 0),
      count: Number(response.headers.get('x-slice-count') ?? 1),
      axis,
      volume: Number(response.headers.get('x-volume') ?? 0),
      volumes: Number(response.headers.get('x-volume-count') ?? 1),
    });
  } catch (error) {
    if (current !== request) return;
    release();
    // 415: the server could not decode this file, which is "no preview for this type" to the user.
    $volumePreview.set({ status: (error as WretchError).status === 415 ? 'unsupported' : 'failed' });
  }
}

/** Loads the decoded metadata of an image; nothing is shown when the file cannot be decoded. */
export async function loadImageMetadata(item: UploadItem): Promise<void> {
  $imageMetadata.set({ status: 'loading' });
  try {
    const metadata = await api
      .get(`/uploads/${encodeURIComponent(item.stored_filename)}/metadata`)
      .json<ImageMetadata>();
    if ($detailsItem.get()?.stored_filename === item.stored_filename) $imageMetadata.set({ status: 'ready', metadata });
  } catch {
    $imageMetadata.set({ status: 'none' });
  }
}

/** Loads the stored quality checks of an image. */
export async function loadQcHistory(item: UploadItem): Promise<void> {
  try {
    const items = await api
      .get(`/uploads/${encodeURIComponent(item.stored_filename)}/qc-results`)
      .json<QcResultItem[]>();
    if ($detailsItem.get()?.stored_filename === item.stored_filename) $qcHistory.set({ status: 'ready', items });
  } catch (error) {
    $qcHistory.set({ status: 'failed', message: errorMessage(error, 'Failed to load the check history') });
  }
}

/** Forgets the previous image's preview when another one opens or the modal closes. */
export function resetImaging(): void {
  request++;
  release();
  $volumePreview.set({ status: 'loading' });
  $imageMetadata.set({ status: 'loading' });
  $qcHistory.set({ status: 'loading' });
}

// A finished check adds a stored result: the history of the open image is reloaded.
$qc.listen((qc) => {
  const item = $detailsItem.get();
  if (qc.status === 'done' && item) void loadQcHistory(item);
});
