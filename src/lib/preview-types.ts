/** Extensions a browser can preview as an image (SPEC §5). */
export const PREVIEW_EXTENSIONS: readonly string[] = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'tif', 'tiff'];

/**
 * Whether the details modal should try to show a preview of this extension (with or without its dot).
 * @example isPreviewable('.PNG') // true; isPreviewable('.nii.gz') // false
 */
export function isPreviewable(extension: string): boolean {
  const bare = extension.toLowerCase().replace(/^\./, '');
  return PREVIEW_EXTENSIONS.includes(bare);
}

/** What the file picker offers: every extension the server accepts (SPEC §1). */
export const ACCEPTED_UPLOAD_TYPES = '.dcm,.nii,.nii.gz,.gz,.jpg,.jpeg,.png,.tif,.tiff,.nrrd,.bmp,.gif,.webp,.zip';
