import { atom } from 'nanostores';
import type { QcVerdict } from '../../contract/qc.ts';
import { NEXT_CURSOR_HEADER, UPLOAD_LIMIT_HEADER, type UploadItem } from '../../contract/uploads.ts';
import { api, errorMessage } from '../lib/api.ts';
import { $images, $uploadLimit, apiPathOf, loadImages } from './images.ts';

/** Items per page of the My Images grid: a few screens of cards, so scrolling rarely waits. */
export const LIBRARY_PAGE_SIZE = 96;

/** The My Images grid: the pages loaded so far, newest first, for the current search. */
export interface LibraryState {
  items: UploadItem[];
  /** Cursor of the next page; undefined once the last page is in. */
  next: string | undefined;
  search: string;
  loading: boolean;
  loaded: boolean;
  error: string | undefined;
}

const initial: LibraryState = {
  items: [],
  next: undefined,
  search: '',
  loading: false,
  loaded: false,
  error: undefined,
};

/** The library as the grid shows it. */
export const $library = atom<LibraryState>(initial);

// Each load is numbered: an answer to an older search or reload is dropped when a newer one started.
let generation = 0;

async function fetchPage(search: string, cursor: string | undefined) {
  const query = new URLSearchParams({ limit: String(LIBRARY_PAGE_SIZE) });
  if (search.trim()) query.set('search', search.trim());
  if (cursor) query.set('cursor', cursor);
  const response = await api.get(`/uploads?${query}`).res();
  const limit = Number(response.headers.get(UPLOAD_LIMIT_HEADER));
  if (limit > 0) $uploadLimit.set(limit);
  const items = (await response.json()) as UploadItem[];
  return { items, next: response.headers.get(NEXT_CURSOR_HEADER) ?? undefined };
}

/** Loads the first page for `search` (the current one when absent), replacing what the grid holds. */
export async function loadLibrary(search = $library.get().search): Promise<void> {
  const mine = ++generation;
  $library.set({ ...$library.get(), search, loading: true, error: undefined });
  try {
    const page = await fetchPage(search, undefined);
    if (mine !== generation) return;
    $library.set({ items: page.items, next: page.next, search, loading: false, loaded: true, error: undefined });
  } catch (error) {
    if (mine !== generation) return;
    $library.set({
      ...$library.get(),
      loading: false,
      loaded: true,
      error: errorMessage(error, 'Failed to load images'),
    });
  }
}

/** Loads the next page, when there is one and no load is running. */
export async function loadMoreLibrary(): Promise<void> {
  const state = $library.get();
  if (state.loading || !state.next) return;
  const mine = generation;
  $library.set({ ...state, loading: true, error: undefined });
  try {
    const page = await fetchPage(state.search, state.next);
    if (mine !== generation) return;
    const current = $library.get();
    const seen = new Set(current.items.map((item) => item.stored_filename));
    const items = [...current.items, ...page.items.filter((item) => !seen.has(item.stored_filename))];
    $library.set({ ...current, items, next: page.next, loading: false });
  } catch (error) {
    if (mine !== generation) return;
    $library.set({ ...$library.get(), loading: false, error: errorMessage(error, 'Failed to load images') });
  }
}

/** Forgets the grid's pages (another workspace was chosen). */
export function resetLibrary(): void {
  generation++;
  $library.set(initial);
}

/** After uploads: the grid starts again from the newest, and the whole list is reloaded if a page uses it. */
export async function reloadImageLists(): Promise<void> {
  await Promise.all([
    $library.get().loaded ? loadLibrary() : undefined,
    $images.get().loaded ? loadImages() : undefined,
  ]);
}

/** Deletes one image of the grid, keeping the pages loaded; resolves to an error message, or undefined on success. */
export async function deleteFromLibrary(item: UploadItem): Promise<string | undefined> {
  try {
    await api.delete(apiPathOf(item.url)).res();
  } catch (error) {
    return errorMessage(error, 'Delete failed');
  }
  const gone = (items: UploadItem[]) => items.filter((i) => i.stored_filename !== item.stored_filename);
  $library.set({ ...$library.get(), items: gone($library.get().items) });
  if ($images.get().loaded) $images.set({ ...$images.get(), items: gone($images.get().items) });
  return undefined;
}

/** Shows a check's verdict on its card at once, as the next load of the list would. */
export function noteVerdict(storedFilename: string, verdict: QcVerdict): void {
  const state = $library.get();
  if (!state.items.some((item) => item.stored_filename === storedFilename)) return;
  const items = state.items.map((item) =>
    item.stored_filename === storedFilename ? { ...item, qc_verdict: verdict } : item,
  );
  $library.set({ ...state, items });
}

/** Drops the "Not de-identified" flag of one image at once, as the next load of the list would (after confirming it clean). */
export function noteConfirmedClean(storedFilename: string): void {
  const unflag = (items: UploadItem[]) =>
    items.map((item) => {
      if (item.stored_filename !== storedFilename) return item;
      const { identifiable: _flag, ...rest } = item;
      return rest;
    });
  $library.set({ ...$library.get(), items: unflag($library.get().items) });
  if ($images.get().loaded) $images.set({ ...$images.get(), items: unflag($images.get().items) });
}
