import { rotateMolecule, zoomMolecule } from '../../../stores/molecule-renderer.ts';

const nudges: [string, string, () => void][] = [
  ['◀', 'Rotate left', () => rotateMolecule('y', -15)],
  ['▶', 'Rotate right', () => rotateMolecule('y', 15)],
  ['▲', 'Rotate up', () => rotateMolecule('x', -15)],
  ['▼', 'Rotate down', () => rotateMolecule('x', 15)],
  ['+', 'Zoom in', () => zoomMolecule(1.2)],
  ['−', 'Zoom out', () => zoomMolecule(1 / 1.2)],
];

/** Buttons that turn and zoom the model, so the view does not need a mouse. */
export default function ViewNudges({ disabled }: { disabled: boolean }) {
  return (
    <div className="mv-nudges" role="group" aria-label="Turn and zoom">
      {nudges.map(([symbol, label, act]) => (
        <button key={label} type="button" aria-label={label} title={label} onClick={act} disabled={disabled}>
          <span aria-hidden="true">{symbol}</span>
        </button>
      ))}
    </div>
  );
}
