import { useStore } from '@nanostores/react';
import { $preview, previewFailed } from '../../stores/details.ts';

/** The open image's preview, its loading state, or why there is none. */
export default function PreviewPane({ name }: { name: string }) {
  const preview = useStore($preview);
  return (
    <div className="dash-preview" aria-live="polite">
      {preview.status === 'loading' && <p role="status">Loading preview...</p>}
      {preview.status === 'ready' && <img src={preview.url} alt={`Preview of ${name}`} onError={previewFailed} />}
      {preview.status === 'unsupported' && <p className="dash-muted">No preview for this file type.</p>}
      {preview.status === 'failed' && (
        <p role="alert" className="dash-error">
          Image preview not available.
        </p>
      )}
    </div>
  );
}
