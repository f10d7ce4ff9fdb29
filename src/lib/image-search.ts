import type { UploadItem } from '../../contract/uploads.ts';

/** The name an image is shown and searched by: its original name, else its stored name. */
export function displayName(item: Pick<UploadItem, 'original_name_guess' | 'stored_filename'>): string {
  return item.original_name_guess || item.stored_filename;
}

/**
 * The images whose display name contains the query, case-insensitively (SPEC §5); all for a blank query.
 * @example filterImages(items, 'KNEE') // items named 'left knee.png', 'Knee.dcm'…
 */
export function filterImages<T extends Pick<UploadItem, 'original_name_guess' | 'stored_filename'>>(
  items: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...items];
  return items.filter((item) => displayName(item).toLowerCase().includes(needle));
}
