import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import type { UploadItem } from '../../../../contract/uploads.ts';
import {
  $volumeColormap,
  $volumeCursor,
  $volumeFrame,
  $volumeStatus,
  $volumeWindow,
  applyCtWindow,
  applyWindowPreset,
  closeVolume,
  openVolume,
  setVolumeColormap,
  setVolumeFrame,
  VOLUME_COLORMAPS,
} from '../../../stores/volume-viewer.ts';
import { CT_WINDOWS } from '../../../stores/volume-window-presets.ts';
import SliceControls from './SliceControls.tsx';
import VolumeProgress from './VolumeProgress.tsx';
import './volume-viewer.css';

/** NiiVue view of one NIfTI, NRRD or DICOM upload: three slices and a 3D render, window/level, colour maps. */
export default function VolumeViewer({ item }: { item: UploadItem }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const status = useStore($volumeStatus);
  const cursor = useStore($volumeCursor);
  const range = useStore($volumeWindow);
  const colormap = useStore($volumeColormap);
  const frame = useStore($volumeFrame);
  useEffect(() => {
    if (canvas.current) void openVolume(item, canvas.current);
    return closeVolume;
  }, [item]);
  const ready = status.phase === 'ready';
  return (
    <section className="vv" aria-labelledby="vv-title">
      <h3 id="vv-title">Volume viewer</h3>
      <p className="vv-help">
        Click to move the crosshair, scroll over a slice to step through it, drag with the right mouse button to change
        the window. Tiles: axial, coronal, sagittal and 3D render.
      </p>
      <div className="vv-stage">
        <canvas ref={canvas} className="vv-canvas" aria-label="Axial, coronal and sagittal slices and a 3D render" />
        <VolumeProgress status={status} />
      </div>
      {ready && (
        <div className="vv-controls">
          <label>
            Colour map
            <select value={colormap} onChange={(e) => setVolumeColormap(e.target.value)}>
              {VOLUME_COLORMAPS.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <div className="vv-presets" role="group" aria-label="Window presets">
            <button type="button" onClick={() => applyWindowPreset('auto')}>
              Auto window
            </button>
            <button type="button" onClick={() => applyWindowPreset('full')}>
              Full range
            </button>
            <button type="button" onClick={() => applyWindowPreset('narrow')}>
              Narrow window
            </button>
            {status.hounsfield &&
              CT_WINDOWS.map((w) => (
                <button key={w.label} type="button" onClick={() => applyCtWindow(w)}>
                  {w.label} (W {w.width} L {w.level})
                </button>
              ))}
          </div>
          <SliceControls dims={status.dims} cursor={cursor} />
          {status.frames > 1 && (
            <label className="vv-frames">
              Volume {frame + 1} of {status.frames}
              <input
                type="range"
                min={0}
                max={status.frames - 1}
                value={frame}
                onChange={(e) => setVolumeFrame(Number(e.target.value))}
              />
            </label>
          )}
        </div>
      )}
      <p className="vv-readout" aria-live="polite" data-testid="volume-readout">
        {range && (
          <span>
            Window {range.min} to {range.max}
          </span>
        )}
        {cursor && (
          <span>
            Voxel ({cursor.voxel.join(', ')}) · {cursor.mm.join(', ')} mm · value {cursor.value}
          </span>
        )}
      </p>
    </section>
  );
}
