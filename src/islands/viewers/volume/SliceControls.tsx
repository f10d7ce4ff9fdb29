import type { VolumeCursor } from '../../../stores/volume-viewer.ts';
import { moveSlice } from '../../../stores/volume-viewer.ts';

const axes: { axis: 0 | 1 | 2; label: string }[] = [
  { axis: 2, label: 'Axial slice' },
  { axis: 1, label: 'Coronal slice' },
  { axis: 0, label: 'Sagittal slice' },
];

/** One slider a plane: the keyboard way to scroll through slices (the wheel works over the canvas). */
export default function SliceControls({ dims, cursor }: { dims: [number, number, number]; cursor?: VolumeCursor }) {
  return (
    <div className="vv-slices">
      {axes.map(({ axis, label }) => {
        const current = cursor?.voxel[axis] ?? Math.floor(dims[axis] / 2);
        return (
          <label key={axis}>
            {label} {current + 1} / {dims[axis]}
            <input
              type="range"
              min={0}
              max={dims[axis] - 1}
              value={current}
              onChange={(e) => moveSlice(axis, Number(e.target.value) - current)}
            />
          </label>
        );
      })}
    </div>
  );
}
