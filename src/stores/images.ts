import { atom } from 'nanostores';
import { UPLOAD_LIMIT_HEADER, type UploadItem } from '../../contract/uploads.ts';
import { api, errorMessage } from '../lib/api.ts';

/** The image library as last loaded. */
export interface ImagesState {
  items: UploadItem[];
  loading: boolean;
  loaded: boolean;
  error: string | undefined;
}

/** The workspace's whole image list, as the Analysis page chooses from it (My Images pages through $library). */
export const $images = atom<ImagesState>({ items: [], loading: false, loaded: false, error: undefined });

/** The server's upload size limit in bytes, as last told by GET /uploads. */
export const $uploadLimit = atom<number | undefined>(undefined);

/**
 * The path of an item's `url` relative to the API base, so the one client adds its base and token.
 * @example apiPathOf('/api/v1/uploads/a.png') // '/uploads/a.png'
 */
export function apiPathOf(url: string): string {
  return url.replace(/^(https?:\/\/[^/]+)?\/api\/v1/, '');
}

/** Loads (or reloads) the list; errors show the server's detail or 'Failed to load images'. */
export async function loadImages(): Promise<void> {
  $images.set({ ...$images.get(), loading: true, error: undefined });
  try {
    const response = await api.get('/uploads').res();
    const limit = Number(response.headers.get(UPLOAD_LIMIT_HEADER));
    if (limit > 0) $uploadLimit.set(limit);
    const items = (await response.json()) as UploadItem[];
    $images.set({ items, loading: false, loaded: true, error: undefined });
  } catch (error) {
    $images.set({
      ...$images.get(),
      loading: false,
      loaded: true,
      error: errorMessage(error, 'Failed to load images'),
    });
  }
}
