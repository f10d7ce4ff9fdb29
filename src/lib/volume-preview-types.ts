/**
 * Extensions the server decodes into previews itself: browsers cannot show them (TIFF included, and
 * 16-bit images need windowing). A .zip is a DICOM series.
 */
const decodedExtensions = ['.dcm', '.zip', '.nii', '.nii.gz', '.nrrd', '.tif', '.tiff'];

/**
 * Whether an upload's preview comes from the server's decoder (DICOM and series, NIfTI, NRRD) rather than the file.
 * @example isServerPreviewed('.nii.gz') // true
 */
export function isServerPreviewed(extension: string): boolean {
  return decodedExtensions.includes(extension.toLowerCase());
}

/**
 * The preview path of an upload (relative to the API base) for one slice and plane, of one volume of a 4D image.
 * @example previewPath('a.nii', 'axial', 3) // '/uploads/a.nii/preview.png?axis=axial&slice=3'
 */
export function previewPath(storedFilename: string, axis: string, slice?: number, volume?: number): string {
  const query = new URLSearchParams({ axis });
  if (slice !== undefined) query.set('slice', String(slice));
  if (volume) query.set('volume', String(volume));
  return `/uploads/${encodeURIComponent(storedFilename)}/preview.png?${query}`;
}
