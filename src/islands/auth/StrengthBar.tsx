import { resetRequirements, resetSegments, strengthLabel } from '../../lib/password-rules.ts';

/** The four-segment strength bar of the reset form (length, uppercase, number, special) and its label. */
export function StrengthBar({ id, password }: { id: string; password: string }) {
  const filled = resetSegments(password);
  const label = strengthLabel(password);
  return (
    <div id={id}>
      <div className="strength-bar" data-strength={label} aria-hidden="true">
        {resetRequirements.map((requirement, index) => (
          <span key={requirement.id} className={index < filled ? 'filled' : undefined} />
        ))}
      </div>
      <p className="strength-label">
        Strength {label}
        <span className="visually-hidden">
          {`: ${
            resetRequirements
              .filter((requirement) => !requirement.test(password))
              .map((requirement) => requirement.label.toLowerCase())
              .join(', ') || 'every requirement met'
          }${filled < resetRequirements.length ? ' missing' : ''}`}
        </span>
      </p>
    </div>
  );
}
