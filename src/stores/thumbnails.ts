import { LRUCache } from 'lru-cache';
import { MODALITY_HEADER, type UploadItem } from '../../contract/uploads.ts';
import { api, errorMessage } from '../lib/api.ts';
import { apiPathOf } from './images.ts';

/** A card's picture: an object URL of the thumbnail, or why there is none, and the modality the server named. */
export interface CardThumbnail {
  url?: string;
  failure?: string;
  modality?: string;
}

// Fetched with the bearer token (an <img> cannot send it), so the browser's HTTP cache cannot keep them:
// the last few hundred are kept here, and their object URLs released as they are dropped.
const kept = new LRUCache<string, CardThumbnail>({
  max: 400,
  dispose: (thumbnail) => {
    if (thumbnail.url) URL.revokeObjectURL(thumbnail.url);
  },
});

/** The thumbnail kept for an item, if it was loaded lately. */
export function keptThumbnail(item: UploadItem): CardThumbnail | undefined {
  return kept.get(item.stored_filename);
}

/**
 * Loads an item's thumbnail for one card; never rejects. `signal` aborts it when the card goes (scrolled
 * past), and the server then skips drawing it if it has not started.
 */
export async function loadThumbnail(item: UploadItem, signal?: AbortSignal): Promise<CardThumbnail> {
  const hit = kept.get(item.stored_filename);
  if (hit) return hit;
  if (!item.thumbnail_url) return { failure: 'No preview' };
  try {
    const response = await api.options({ signal }).get(apiPathOf(item.thumbnail_url)).res();
    const modality = response.headers.get(MODALITY_HEADER) ?? undefined;
    // 204: the image has no picture to draw (its details say why).
    const thumbnail =
      response.status === 204
        ? { failure: 'No preview', modality }
        : { url: URL.createObjectURL(await response.blob()), modality };
    kept.set(item.stored_filename, thumbnail);
    return thumbnail;
  } catch (error) {
    const response = (error as { response?: Response }).response;
    const thumbnail = {
      failure: errorMessage(error, 'No preview'),
      modality: response?.headers.get(MODALITY_HEADER) ?? undefined,
    };
    // The server's answer about the file itself stays true; a timeout or a busy server may pass.
    if (response && response.status >= 400 && response.status < 500 && response.status !== 429)
      kept.set(item.stored_filename, thumbnail);
    return thumbnail;
  }
}
