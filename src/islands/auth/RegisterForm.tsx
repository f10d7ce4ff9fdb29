import { useState, type SubmitEvent } from 'react';
import { ruleChecklist } from '../../lib/password-rules.ts';
import { AuthError, register } from '../../stores/auth.ts';
import { PasswordField, TextField } from './fields.tsx';
import { FormMessage } from './FormMessage.tsx';
import { useNewPassword } from './use-new-password.ts';
import { VerifyInbox } from './VerifyInbox.tsx';
import './auth.css';

const MISMATCH = 'Passwords do not match';

/** Where the check-your-inbox screen is remembered, so a reload or a shared link shows it again. */
function setVerifyQuery(email: string | undefined) {
  const url = new URL(window.location.href);
  if (email) url.searchParams.set('verify', email);
  else url.searchParams.delete('verify');
  window.history.replaceState(null, '', url);
}

/** The register screen: four fields, the live checklist of the five rules, then the verify-email screen. */
export default function RegisterForm() {
  const [verifyEmail, setVerifyEmail] = useState(() => new URLSearchParams(window.location.search).get('verify'));
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const { password, setPassword, confirm, setConfirm, busy, setBusy, error, setError, ...form } =
    useNewPassword(MISMATCH);
  const { passwordRef, confirmRef, messageRef } = form;

  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    if (!form.validate()) return;
    setBusy(true);
    setError(undefined);
    try {
      await register({ name: name.trim(), email: email.trim(), password });
      setVerifyQuery(email.trim());
      setVerifyEmail(email.trim());
    } catch (failure) {
      const message = failure instanceof AuthError ? failure.message : 'Registration failed. Please try again.';
      setError({ message, field: 'form' });
    } finally {
      setBusy(false);
    }
  }

  if (verifyEmail) {
    return (
      <VerifyInbox
        email={verifyEmail}
        onBack={() => {
          setVerifyQuery(undefined);
          setVerifyEmail(null);
        }}
      />
    );
  }

  const errorFor = (field: 'password' | 'confirm') => (error?.field === field ? 'register-message' : undefined);
  return (
    <section className="auth-card" aria-labelledby="register-heading">
      <h1 id="register-heading">Create your account</h1>
      <p className="lead">Register to upload, check and discuss your medical images.</p>
      <form onSubmit={onSubmit} aria-busy={busy}>
        <TextField
          id="register-name"
          label="Name"
          value={name}
          onChange={setName}
          autoComplete="name"
          maxLength={100}
        />
        <TextField
          id="register-email"
          label="Email"
          type="email"
          value={email}
          onChange={setEmail}
          autoComplete="email"
          maxLength={254}
        />
        <PasswordField
          id="register-password"
          label="Password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          ref={passwordRef}
          errorId={errorFor('password')}
          describedBy="register-rules"
        />
        <ul id="register-rules" className="rule-list" aria-label="Password rules">
          {ruleChecklist(password).map((rule) => (
            <li key={rule.id} className={rule.met ? 'met' : undefined}>
              {rule.label}
              <span className="visually-hidden">{rule.met ? ' (met)' : ' (not met)'}</span>
            </li>
          ))}
        </ul>
        <PasswordField
          id="register-confirm"
          label="Confirm password"
          value={confirm}
          onChange={setConfirm}
          autoComplete="new-password"
          ref={confirmRef}
          errorId={errorFor('confirm')}
        />
        <FormMessage id="register-message" kind="error" message={error?.message} ref={messageRef} />
        <button className="auth-button" type="submit" disabled={busy}>
          {busy ? 'Creating account...' : 'Register'}
        </button>
      </form>
      <p className="auth-footer">
        Already have an account? <a href="/login">Sign in</a>
      </p>
    </section>
  );
}
