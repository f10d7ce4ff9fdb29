import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { PreviewAxis } from '../../../contract/imaging.ts';
import type { UploadItem } from '../../../contract/uploads.ts';
import { $volumePreview, resetImaging, showSlice } from '../../stores/imaging.ts';
import './imaging.css';

const axes: PreviewAxis[] = ['axial', 'coronal', 'sagittal'];

/** The server-rendered preview of a DICOM, NIfTI or NRRD image, with a slice slider and plane choice for volumes. */
export default function VolumePreview({ item, name }: { item: UploadItem; name: string }) {
  const preview = useStore($volumePreview);
  useEffect(() => {
    void showSlice(item);
    return resetImaging;
  }, [item]);
  const volume = preview.status === 'ready' && (preview.count > 1 || preview.axis !== 'axial');

  return (
    <div className="dash-preview imaging-preview" aria-live="polite">
      {preview.status === 'loading' && <p role="status">Loading preview...</p>}
      {preview.status === 'ready' && (
        <>
          <img
            src={preview.url}
            alt={`Preview of ${name}, ${preview.volumes > 1 ? `volume ${preview.volume + 1} of ${preview.volumes}, ` : ''}${preview.axis} slice ${preview.slice + 1} of ${preview.count}`}
          />
          {volume && (
            <div className="imaging-slice-controls">
              <label>
                Plane{' '}
                <select
                  value={preview.axis}
                  onChange={(event) =>
                    void showSlice(item, event.target.value as PreviewAxis, undefined, preview.volume)
                  }
                >
                  {axes.map((axis) => (
                    <option key={axis} value={axis}>
                      {axis[0]!.toUpperCase() + axis.slice(1)}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Slice {preview.slice + 1} of {preview.count}
                <input
                  type="range"
                  min={0}
                  max={preview.count - 1}
                  value={preview.slice}
                  onChange={(event) => void showSlice(item, preview.axis, Number(event.target.value), preview.volume)}
                />
              </label>
              {preview.volumes > 1 && (
                <label>
                  Volume {preview.volume + 1} of {preview.volumes}
                  <input
                    type="range"
                    min={0}
                    max={preview.volumes - 1}
                    value={preview.volume}
                    onChange={(event) => void showSlice(item, preview.axis, preview.slice, Number(event.target.value))}
                  />
                </label>
              )}
            </div>
          )}
        </>
      )}
      {preview.status === 'unsupported' && <p className="dash-muted">No preview for this file type.</p>}
      {preview.status === 'failed' && (
        <p role="alert" className="dash-error">
          Image preview not available.
        </p>
      )}
    </div>
  );
}
