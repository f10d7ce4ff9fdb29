import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { $moleculeModel } from '../../../stores/molecule-viewer.ts';
import { $renderedModelId, $rendererError, mountMoleculeViewer } from '../../../stores/molecule-renderer.ts';

/** The WebGL canvas with its loading and error states laid over it. */
export default function MoleculeStage() {
  const host = useRef<HTMLDivElement>(null);
  const model = useStore($moleculeModel);
  const renderedId = useStore($renderedModelId);
  const rendererError = useStore($rendererError);
  useEffect(() => (host.current ? mountMoleculeViewer(host.current) : undefined), []);
  const error = model.status === 'error' ? model.message : rendererError;
  const loading = !error && (model.status !== 'loaded' || renderedId !== model.entry.id);
  const label = model.status === 'loaded' ? `3D rendering of ${model.entry.name} (${model.entry.id})` : '3D rendering';
  return (
    <div className="mv-stage" aria-busy={loading}>
      <div ref={host} className="mv-canvas" role="img" aria-label={label} data-rendered={renderedId ?? ''} />
      {loading && (
        <div className="mv-overlay" role="status">
          <span className="mv-spinner" aria-hidden="true" />
          Loading 3D model…
        </div>
      )}
      {error && (
        <div className="mv-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
