import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import {
  $mfa,
  $mfaBusy,
  $mfaMessage,
  askToDisable,
  cancelEnrolment,
  confirmEnrolment,
  disableMfa,
  keepMfaOn,
  loadMfa,
  recoveryCodesKept,
  startEnrolment,
} from '../../stores/mfa.ts';
import './account-settings.css';

/** The secret in groups of four, as authenticator apps show keys typed by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * The MFA checkbox of Settings and what ticking it does: enrol an authenticator (QR code, manual key,
 * first code, recovery codes shown once), or, unticked while on, turn MFA off with a code.
 */
export default function MfaSection() {
  const mfa = useStore($mfa);
  const busy = useStore($mfaBusy);
  const message = useStore($mfaMessage);

  useEffect(() => {
    void loadMfa();
  }, []);

  const checked = mfa.step === 'on' || mfa.step === 'enrolling' || mfa.step === 'codes';
  const toggle = (on: boolean) => {
    if (on && mfa.step === 'off') void startEnrolment();
    else if (on && mfa.step === 'disabling') keepMfaOn();
    else if (!on && mfa.step === 'enrolling') cancelEnrolment();
    else if (!on && mfa.step === 'on') askToDisable();
  };

  return (
    <section aria-labelledby="mfa-title" className="dash-form account-mfa">
      <h2 id="mfa-title">Sign-in security</h2>
      <div className="dash-check">
        <input
          id="settings-mfa"
          name="mfa"
          type="checkbox"
          checked={checked}
          disabled={busy || mfa.step === 'loading' || mfa.step === 'unavailable' || mfa.step === 'codes'}
          aria-describedby="mfa-state"
          onChange={(e) => toggle(e.target.checked)}
        />
        <label htmlFor="settings-mfa">Enable multi-factor authentication (MFA)</label>
      </div>
      <p id="mfa-state" className="dash-muted">
        {mfa.step === 'loading' && 'Loading...'}
        {mfa.step === 'unavailable' && mfa.message}
        {mfa.step === 'off' && 'Off: signing in needs your password only.'}
        {(mfa.step === 'on' || mfa.step === 'disabling') &&
          `On: signing in asks for a code from your authenticator app. Recovery codes left: ${mfa.recoveryCodesLeft}.`}
      </p>

      {mfa.step === 'enrolling' && (
        <CodeForm
          label="Verification code"
          submitLabel="Confirm"
          onSubmit={confirmEnrolment}
          cancelLabel="Cancel"
          onCancel={cancelEnrolment}
          busy={busy}
        >
          <h3>Set up your authenticator app</h3>
          <ol>
            <li>
              Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, Aegis…).
            </li>
            <li>Enter the six-digit code the app shows, to confirm.</li>
          </ol>
          <img
            className="account-mfa-qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(mfa.qrSvg)}`}
            alt="QR code for your authenticator app"
            width={200}
            height={200}
          />
          <p id="mfa-manual-key">
            Cannot scan it? Enter this key in the app by hand: <code>{grouped(mfa.secret)}</code>
          </p>
        </CodeForm>
      )}

      {mfa.step === 'codes' && (
        <div className="account-mfa-panel">
          <h3>Your recovery codes</h3>
          <p>
            Keep these codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only this
            once.
          </p>
          <ul className="account-recovery-codes" aria-label="Recovery codes">
            {mfa.recoveryCodes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <button type="button" className="dash-primary" onClick={recoveryCodesKept}>
            I have saved my recovery codes
          </button>
        </div>
      )}

      {mfa.step === 'disabling' && (
        <CodeForm
          label="Code"
          submitLabel="Turn off MFA"
          danger
          onSubmit={disableMfa}
          cancelLabel="Keep MFA on"
          onCancel={keepMfaOn}
          busy={busy}
        >
          <h3>Turn off MFA</h3>
          <p>Enter a code from your authenticator app, or one of your recovery codes.</p>
        </CodeForm>
      )}

      <p
        role={message?.kind === 'error' ? 'alert' : 'status'}
        className={message?.kind === 'error' ? 'dash-error' : 'dash-ok'}
      >
        {message?.text ?? ''}
      </p>
    </section>
  );
}

/**
 * A panel asking for a code: the app's six digits, or letters too, since a recovery code may be typed.
 * Each panel keeps its own text, so a code typed to confirm never reappears when turning MFA off.
 */
function CodeForm(props: {
  label: string;
  submitLabel: string;
  onSubmit: (code: string) => Promise<void>;
  cancelLabel: string;
  onCancel: () => void;
  busy: boolean;
  danger?: boolean;
  children: React.ReactNode;
}) {
  const [code, setCode] = useState('');
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    void props.onSubmit(code.trim());
  };
  return (
    <form className="account-mfa-panel" onSubmit={submit} aria-busy={props.busy}>
      {props.children}
      <div className="dash-field">
        <label htmlFor="mfa-code">{props.label}</label>
        <input
          id="mfa-code"
          name="code"
          autoComplete="one-time-code"
          spellCheck={false}
          maxLength={64}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </div>
      <div className="dash-form-actions">
        <button
          type="submit"
          className={props.danger ? 'dash-danger' : 'dash-primary'}
          disabled={props.busy || code.trim() === ''}
        >
          {props.submitLabel}
        </button>
        <button type="button" className="dash-quiet" onClick={props.onCancel}>
          {props.cancelLabel}
        </button>
      </div>
    </form>
  );
}
