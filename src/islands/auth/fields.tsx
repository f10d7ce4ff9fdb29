import { useState, type ChangeEvent, type Ref } from 'react';

/** Props shared by the labelled inputs of the account screens. */
interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  /** Marks the field invalid and points its description at the error message with this id. */
  errorId?: string;
  /** React 19 passes `ref` as a plain prop to function components. */
  ref?: Ref<HTMLInputElement>;
  required?: boolean;
  minLength?: number;
  /** Ids of hints that describe the field (the password checklist, for example). */
  describedBy?: string;
}

const describedBy = (...ids: (string | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;

/** A visibly labelled text or e-mail input. */
export function TextField({ ref, ...props }: FieldProps & { type?: 'text' | 'email'; maxLength?: number }) {
  return (
    <div className="auth-field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        ref={ref}
        type={props.type ?? 'text'}
        value={props.value}
        onChange={(event: ChangeEvent<HTMLInputElement>) => props.onChange(event.target.value)}
        autoComplete={props.autoComplete}
        required={props.required ?? true}
        maxLength={props.maxLength}
        aria-invalid={props.errorId ? true : undefined}
        aria-describedby={describedBy(props.errorId, props.describedBy)}
      />
    </div>
  );
}

/** A labelled password input with a show/hide toggle that says which field it reveals. */
export function PasswordField({ ref, ...props }: FieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="auth-field">
      <label htmlFor={props.id}>{props.label}</label>
      <div className="password-row">
        <input
          id={props.id}
          ref={ref}
          type={visible ? 'text' : 'password'}
          value={props.value}
          onChange={(event: ChangeEvent<HTMLInputElement>) => props.onChange(event.target.value)}
          autoComplete={props.autoComplete}
          required={props.required ?? true}
          minLength={props.minLength}
          maxLength={256}
          aria-invalid={props.errorId ? true : undefined}
          aria-describedby={describedBy(props.errorId, props.describedBy)}
        />
        <button
          type="button"
          className="toggle"
          aria-controls={props.id}
          aria-pressed={visible}
          aria-label={`${visible ? 'Hide' : 'Show'} ${props.label.toLowerCase()}`}
          onClick={() => setVisible(!visible)}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </div>
  );
}
