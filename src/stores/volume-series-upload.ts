/** One request of an upload: the files it sends, where, and the name its progress row shows. */
export interface UploadBatch {
  name: string;
  files: File[];
  /** The series route groups DICOM files by series; everything else goes to the single-file route. */
  route: '/uploads' | '/uploads/series';
}

const isZip = (file: File) => file.name.toLowerCase().endsWith('.zip');

/**
 * DICOM files chosen together travel in one request to the series route, each as its own part (so the
 * server knows each file's name), where they are grouped by Study and Series Instance UID: a series
 * becomes one item, an unrelated file stays an item of its own. A lone .dcm file, and every other file,
 * goes on its own; a .zip goes to the series route as it is.
 * @example groupUploads([a.dcm, b.dcm, c.png]) // [{ name: '2 DICOM files', files: [a, b] }, { name: 'c.png', … }]
 */
export function groupUploads(files: readonly File[]): UploadBatch[] {
  const dicom = files.filter((file) => file.name.toLowerCase().endsWith('.dcm'));
  const together = dicom.length >= 2 ? dicom : [];
  const batches: UploadBatch[] = together.length
    ? [{ name: `${together.length} DICOM files`, files: together, route: '/uploads/series' }]
    : [];
  for (const file of files) {
    if (together.includes(file)) continue;
    batches.push({ name: file.name, files: [file], route: isZip(file) ? '/uploads/series' : '/uploads' });
  }
  return batches;
}
