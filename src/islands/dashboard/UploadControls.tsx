import { useStore } from '@nanostores/react';
import { useRef, useState, type DragEvent } from 'react';
import { ACCEPTED_UPLOAD_TYPES } from '../../lib/preview-types.ts';
import { $uploading, $uploadJobs, cancelUpload, clearFinishedUploads, uploadFiles } from '../../stores/uploads.ts';
import KeepOriginalOption from '../imaging/KeepOriginalOption.tsx';
import { $currentWorkspace } from '../../stores/workspaces.ts';

/** The Upload Image button, the drop zone and one progress bar per file with its cancel button. */
export default function UploadControls() {
  const jobs = useStore($uploadJobs);
  const uploading = useStore($uploading);
  const workspace = useStore($currentWorkspace);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const start = (files: FileList | null) => {
    if (files?.length) void uploadFiles([...files]);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    start(event.dataTransfer.files);
  };

  return (
    <div className="dash-upload">
      <div
        className={dragging ? 'dash-dropzone dragging' : 'dash-dropzone'}
        data-testid="dropzone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <button type="button" className="dash-primary" onClick={() => input.current?.click()}>
          Upload Image
        </button>
        <p>or drop one or more files here (DICOM, NIfTI, NRRD, TIFF, PNG, JPEG, BMP, GIF, WebP)</p>
        {/* Keeping patient data is a workspace admin's decision (the server answers 403 to anyone else). */}
        {workspace?.role === 'admin' && <KeepOriginalOption />}
        <input
          ref={input}
          id="upload-input"
          type="file"
          multiple
          hidden
          accept={ACCEPTED_UPLOAD_TYPES}
          aria-label="Choose images to upload"
          onChange={(event) => {
            start(event.target.files);
            event.target.value = '';
          }}
        />
      </div>
      <p role="status" className="dash-upload-status">
        {uploading ? 'Uploading...' : ''}
      </p>
      {jobs.length > 0 && (
        <ul className="dash-jobs" aria-label="Uploads">
          {jobs.map((job) => {
            const percent = job.total ? Math.min(100, Math.round((job.loaded / job.total) * 100)) : 0;
            return (
              <li key={job.id} className={`dash-job ${job.status}`}>
                <span className="dash-job-name">{job.name}</span>
                <progress max={100} value={percent} aria-label={`Upload of ${job.name}`} />
                <span className="dash-job-percent">{percent}%</span>
                {job.status === 'uploading' && (
                  <button type="button" className="dash-quiet" onClick={() => cancelUpload(job.id)}>
                    Cancel <span className="visually-hidden">upload of {job.name}</span>
                  </button>
                )}
                {job.status === 'done' && <span className="dash-ok">Done</span>}
                {job.status === 'cancelled' && <span>Cancelled</span>}
                {job.status === 'failed' && (
                  <span role="alert" className="dash-error">
                    {job.error ?? 'Upload failed'}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {!uploading && jobs.length > 0 && (
        <button type="button" className="dash-quiet" onClick={clearFinishedUploads}>
          Clear upload list
        </button>
      )}
    </div>
  );
}
