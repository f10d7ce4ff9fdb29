import { lazy, Suspense, useState } from 'react';
import type { UploadItem } from '../../../../contract/uploads.ts';

// NiiVue and the viewer load only when the button is pressed: the dashboard's first load stays small.
const VolumeViewer = lazy(() => import('./VolumeViewer.tsx'));

/** Volume formats NiiVue can show. */
const VOLUME_EXTENSIONS = ['.nii', '.nii.gz', '.nrrd', '.dcm'];

/** The 'Open viewer' button of the image details, for NIfTI, NRRD and DICOM items, and the viewer it opens. */
export default function OpenVolumeViewer({ item }: { item: UploadItem }) {
  const [open, setOpen] = useState(false);
  // A .zip item is a DICOM series grouped on upload (it carries its slice count).
  const series = item.extension === '.zip' && Boolean(item.slice_count);
  if (!series && !VOLUME_EXTENSIONS.includes(item.extension)) return null;
  return (
    <div className="vv-open">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Close viewer' : 'Open viewer'}
      </button>
      {open && (
        <Suspense fallback={<p role="status">Loading viewer…</p>}>
          <VolumeViewer item={item} />
        </Suspense>
      )}
    </div>
  );
}
