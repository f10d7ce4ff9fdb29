import { useEffect, useState } from 'react';
import { takeFromAddressBar } from '../../lib/address-bar-secrets.ts';
import { parseResetLink } from '../../lib/password-reset-link.ts';
import { AuthError, signInAfterReset, validateResetToken } from '../../stores/auth.ts';
import { FormMessage } from './FormMessage.tsx';
import { ResetPasswordForm } from './ResetPasswordForm.tsx';
import { useFocusOn } from './use-focus-on.ts';
import './auth.css';

type View =
  | { view: 'validating' }
  | { view: 'invalid'; message: string }
  | { view: 'form' }
  | { view: 'success'; message: string };

const INVALID = 'Invalid or expired reset token. Please request a new password reset.';

/** The reset page: validating, invalid link, form, success with the automatic sign-in (SPEC §4). */
export default function ResetPassword() {
  // Out of the address bar at once: token and address together must not linger where they can be shared.
  const [link] = useState(() => parseResetLink(`?${takeFromAddressBar(['token', 'email']).toString()}`));
  const [state, setState] = useState<View>(() =>
    link ? { view: 'validating' } : { view: 'invalid', message: 'Invalid reset link. Missing token or email.' },
  );
  const headingRef = useFocusOn<HTMLHeadingElement>(state.view === 'validating' ? undefined : state.view);

  // Once per page view: the link is fixed for the life of the page.
  useEffect(() => {
    if (!link) return;
    let current = true;
    validateResetToken(link.token, link.email).then(
      () => current && setState({ view: 'form' }),
      (error: unknown) =>
        current && setState({ view: 'invalid', message: error instanceof AuthError ? error.message : INVALID }),
    );
    return () => {
      current = false;
    };
  }, [link]);

  async function onDone(password: string) {
    setState({ view: 'success', message: 'Your password has been reset. Signing you in...' });
    const outcome = await signInAfterReset(link!.email, password);
    if (outcome === 'signed-in') {
      setState({
        view: 'success',
        message: 'Your password has been reset. You are signed in; opening your dashboard...',
      });
    } else {
      setState({ view: 'success', message: 'Your password has been reset. Please sign in with your new password.' });
    }
  }

  const headings = {
    validating: 'Checking your reset link...',
    invalid: 'Invalid Reset Link',
    form: 'Choose a new password',
    success: 'Password Reset',
  } as const;
  return (
    <section className="auth-card" aria-labelledby="reset-heading" aria-busy={state.view === 'validating'}>
      <h1 id="reset-heading" ref={headingRef} tabIndex={-1}>
        {headings[state.view]}
      </h1>
      {state.view === 'validating' && <div className="status-spinner" aria-hidden="true" />}
      {state.view === 'form' && (
        <>
          <p className="lead">
            New password for <strong>{link!.email}</strong>.
          </p>
          <ResetPasswordForm token={link!.token} email={link!.email} onDone={onDone} />
        </>
      )}
      {state.view === 'invalid' && (
        <>
          <FormMessage id="reset-invalid" kind="error" message={state.message} />
          <div className="auth-actions">
            <a className="auth-button" href="/login">
              Back to Login
            </a>
            <a className="auth-button secondary" href="/login">
              Request New Reset
            </a>
          </div>
        </>
      )}
      {state.view === 'success' && <FormMessage id="reset-done" kind="success" message={state.message} />}
      {state.view !== 'invalid' && (
        <p className="auth-footer">
          <a href="/login">Back to login</a> · <a href="/">Home</a>
        </p>
      )}
    </section>
  );
}
