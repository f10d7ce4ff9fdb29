/**
 * DICOM slices chosen together are one series: they travel as one .zip to the series route, which
 * groups them by Series Instance UID. A lone .dcm file, and every other file, goes as it is.
 * @example await bundleDicomSlices([a.dcm, b.dcm, c.png]) // [File "2 DICOM slices.zip", c.png]
 */
export async function bundleDicomSlices(files: readonly File[]): Promise<File[]> {
  const slices = files.filter((file) => file.name.toLowerCase().endsWith('.dcm'));
  if (slices.length < 2) return [...files];
  const { zipSync } = await import('fflate');
  const entries: Record<string, Uint8Array> = {};
  for (const [i, file] of slices.entries()) entries[`${i}-${file.name}`] = new Uint8Array(await file.arrayBuffer());
  // Stored, not deflated: DICOM pixel data barely shrinks and the upload starts sooner.
  const archive = zipSync(entries, { level: 0 });
  const bundle = new File([archive], `${slices.length} DICOM slices.zip`, { type: 'application/zip' });
  return [bundle, ...files.filter((file) => !slices.includes(file))];
}
