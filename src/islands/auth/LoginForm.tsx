import { useState, type ReactNode, type Ref, type SubmitEvent } from 'react';
import { AuthError, requestPasswordReset, signIn, signInWithCode } from '../../stores/auth.ts';
import { takeAfterSignInPath } from '../../lib/after-sign-in.ts';
import { PasswordField, TextField } from './fields.tsx';
import { FormMessage } from './FormMessage.tsx';
import { ResendVerification } from './ResendVerification.tsx';
import { useFocusOn } from './use-focus-on.ts';
import './auth.css';

type Mode = 'login' | 'forgot' | 'code';
type Outcome = { kind: 'error' | 'success'; message: string; notVerified?: boolean } | undefined;

const messageOf = (error: unknown) => (error instanceof AuthError ? error.message : 'Login failed. Try again.');

/** A step after the sign-in screen: its heading (focused on arrival), one field, the message, submit and Back. */
function OneFieldStep({
  title,
  lead,
  headingRef,
  onSubmit,
  busy,
  submit,
  message,
  onBack,
  children,
}: {
  title: string;
  lead: ReactNode;
  headingRef: Ref<HTMLHeadingElement>;
  onSubmit: (event: SubmitEvent) => void;
  busy: boolean;
  submit: string;
  message: ReactNode;
  onBack: () => void;
  children: ReactNode;
}) {
  return (
    <section className="auth-card" aria-labelledby="login-heading">
      <h1 id="login-heading" ref={headingRef} tabIndex={-1}>
        {title}
      </h1>
      <p className="lead">{lead}</p>
      <form onSubmit={onSubmit} aria-busy={busy}>
        {children}
        {message}
        <button className="auth-button" type="submit" disabled={busy}>
          {submit}
        </button>
      </form>
      <div className="auth-actions">
        <button type="button" className="auth-button secondary" onClick={onBack}>
          Back
        </button>
      </div>
    </section>
  );
}

/** The sign-in screen with its forgot-password mode (SPEC §2); Back returns to sign-in. */
export default function LoginForm() {
  const [mode, setMode] = useState<Mode>('login');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [mfaToken, setMfaToken] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const messageRef = useFocusOn<HTMLParagraphElement>(outcome);
  const headingRef = useFocusOn<HTMLHeadingElement>(mode === 'login' ? undefined : mode);

  function switchMode(next: Mode) {
    setMode(next);
    setOutcome(undefined);
  }

  async function onSignIn(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    setOutcome(undefined);
    try {
      const result = await signIn(email.trim(), password);
      if (result.status === 'code-needed') {
        setMfaToken(result.mfaToken);
        setCode('');
        setMode('code');
        setBusy(false);
        return;
      }
      window.location.assign(takeAfterSignInPath());
    } catch (error) {
      setOutcome({
        kind: 'error',
        message: messageOf(error),
        notVerified: error instanceof AuthError && error.notVerified,
      });
      setBusy(false);
    }
  }

  async function onCode(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    setOutcome(undefined);
    try {
      await signInWithCode(mfaToken, code.trim());
      window.location.assign(takeAfterSignInPath());
    } catch (error) {
      setOutcome({ kind: 'error', message: messageOf(error) });
      setBusy(false);
    }
  }

  async function onForgot(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    setOutcome(undefined);
    try {
      setOutcome({ kind: 'success', message: await requestPasswordReset(email.trim()) });
    } catch (error) {
      setOutcome({ kind: 'error', message: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }

  const errorId = outcome?.kind === 'error' ? 'login-message' : undefined;
  const message = (
    <FormMessage id="login-message" kind={outcome?.kind ?? 'error'} message={outcome?.message} ref={messageRef} />
  );

  // What the code and forgot-password steps share: focus on their heading, the message, Back to sign-in.
  const step = { headingRef, busy, message, onBack: () => switchMode('login') };

  if (mode === 'code') {
    return (
      <OneFieldStep
        title="Enter your code"
        lead={
          <>
            Open your authenticator app and enter the six-digit code it shows for {email.trim()}. Lost your phone? Enter
            one of your recovery codes instead.
          </>
        }
        {...step}
        onSubmit={onCode}
        submit={busy ? 'Verifying...' : 'Verify'}
      >
        <TextField
          id="login-code"
          label="Authentication code"
          value={code}
          onChange={setCode}
          autoComplete="one-time-code"
          maxLength={64}
          errorId={errorId}
        />
      </OneFieldStep>
    );
  }

  if (mode === 'forgot') {
    return (
      <OneFieldStep
        title="Forgot password"
        lead="Enter the e-mail address of your account and we will send you a link to reset it."
        {...step}
        onSubmit={onForgot}
        submit={busy ? 'Sending...' : 'Send reset link'}
      >
        <TextField
          id="forgot-email"
          label="Email"
          type="email"
          value={email}
          onChange={setEmail}
          autoComplete="email"
          errorId={errorId}
        />
      </OneFieldStep>
    );
  }

  return (
    <section className="auth-card" aria-labelledby="login-heading">
      <h1 id="login-heading">Sign in</h1>
      <p className="lead">Welcome back. Sign in to upload, check and discuss your images.</p>
      <form onSubmit={onSignIn} aria-busy={busy}>
        <TextField
          id="login-email"
          label="Email"
          type="email"
          value={email}
          onChange={setEmail}
          autoComplete="email"
          errorId={errorId}
        />
        <PasswordField
          id="login-password"
          label="Password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          errorId={errorId}
        />
        {message}
        <button className="auth-button" type="submit" disabled={busy}>
          {busy ? 'Signing in...' : 'Sign In'}
        </button>
      </form>
      {outcome?.notVerified && <ResendVerification email={email.trim()} id="login-resend-message" />}
      <p className="auth-footer">
        <button type="button" className="link-button" onClick={() => switchMode('forgot')}>
          Forgot password?
        </button>
      </p>
      <p className="auth-footer">
        No account yet? <a href="/register">Create one</a>
      </p>
    </section>
  );
}
