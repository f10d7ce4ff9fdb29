import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $moleculeModel, watchAddress } from '../../../stores/molecule-viewer.ts';
import MoleculeStage from './MoleculeStage.tsx';
import RelatedModels from './RelatedModels.tsx';
import StructureStatsList from './StructureStatsList.tsx';
import ViewerControls from './ViewerControls.tsx';
import './model-viewer.css';

/** The 3D Models view of the dashboard (`/dashboard/model-viewer?id&type`): a 3Dmol.js viewer. */
export default function ModelViewerPage() {
  const model = useStore($moleculeModel);
  useEffect(() => watchAddress(), []);
  const entry = model.status === 'loaded' ? model.entry : undefined;
  return (
    <section className="model-viewer" aria-labelledby="model-viewer-title">
      <header className="mv-header">
        <h1 id="model-viewer-title">3D Models</h1>
        <p className="mv-subtitle">
          {entry ? (
            <>
              <strong>{entry.name}</strong> <span className="mv-id">{entry.id}</span> — {entry.description}
            </>
          ) : model.status === 'loading' ? (
            `Loading ${model.id}…`
          ) : (
            'Model not found'
          )}
        </p>
      </header>
      <div className="mv-layout">
        <MoleculeStage />
        <div className="mv-panel">
          <ViewerControls />
          <StructureStatsList />
        </div>
      </div>
      <RelatedModels />
    </section>
  );
}
