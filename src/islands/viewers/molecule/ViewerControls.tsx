import { useStore } from '@nanostores/react';
import type { ChangeEvent } from 'react';
import {
  BACKGROUNDS,
  COLOR_SCHEMES,
  needsBackbone,
  REPRESENTATIONS,
  type Background,
  type ColorScheme,
  type Representation,
} from '../../../lib/structure-style.ts';
import { downloadSnapshot, resetMoleculeView } from '../../../stores/molecule-renderer.ts';
import ViewNudges from './ViewNudges.tsx';
import {
  $moleculeModel,
  $moleculeOptions,
  $shareNotice,
  downloadStructure,
  setViewerOption,
  shareModel,
} from '../../../stores/molecule-viewer.ts';

/** Representation, colour scheme and background choices, and the view's actions. */
export default function ViewerControls() {
  const options = useStore($moleculeOptions);
  const model = useStore($moleculeModel);
  const notice = useStore($shareNotice);
  const ready = model.status === 'loaded';
  const smallMolecule = ready && model.entry.type === 'molecule';
  const pick =
    <K extends 'representation' | 'colorScheme' | 'background'>(key: K) =>
    (event: ChangeEvent<HTMLSelectElement>) =>
      setViewerOption(key, event.target.value as never);
  return (
    <div className="mv-controls">
      <label>
        Representation
        <select value={options.representation} onChange={pick('representation')}>
          {REPRESENTATIONS.map(([value, label]: [Representation, string]) => (
            <option key={value} value={value} disabled={smallMolecule && needsBackbone(value)}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {smallMolecule && needsBackbone(options.representation) && (
        <p className="mv-hint">A small molecule has no backbone: it is drawn as ball and stick.</p>
      )}
      <label>
        Colour scheme
        <select value={options.colorScheme} onChange={pick('colorScheme')}>
          {COLOR_SCHEMES.map(([value, label]: [ColorScheme, string]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Background
        <select value={options.background} onChange={pick('background')}>
          {BACKGROUNDS.map(([value, label]: [Background, string, string]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <ViewNudges disabled={!ready} />
      <div className="mv-actions">
        <button type="button" onClick={resetMoleculeView} disabled={!ready}>
          Reset View
        </button>
        <button type="button" onClick={downloadStructure} disabled={!ready}>
          Download {ready ? `.${model.entry.format}` : 'file'}
        </button>
        <button type="button" onClick={downloadSnapshot} disabled={!ready}>
          Download PNG
        </button>
        <button type="button" onClick={() => void shareModel()}>
          Share
        </button>
      </div>
      <div role="status" className="mv-share">
        {notice?.copied && (
          <>
            Link copied: <code>{notice.link}</code>
          </>
        )}
        {notice && !notice.copied && (
          <label>
            Copy this link
            <input type="text" readOnly value={notice.link} onFocus={(e) => e.target.select()} />
          </label>
        )}
      </div>
    </div>
  );
}
