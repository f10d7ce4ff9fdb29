import { useEffect, useState } from 'react';
import { takeFromAddressBar } from '../../lib/address-bar-secrets.ts';
import { AuthError, verifyEmail } from '../../stores/auth.ts';
import { useFocusOn } from './use-focus-on.ts';
import './auth.css';

type State =
  | { view: 'loading' }
  | { view: 'success' | 'already'; message: string }
  | { view: 'error'; message: string }
  | { view: 'missing' };

const headings = {
  loading: 'Verifying your email...',
  success: 'Email Verified',
  already: 'Email Already Verified',
  error: 'Verification Error',
  missing: 'Invalid Link',
} as const;

/** The page a verification link opens: loading, then success, already, error; missing token makes no call. */
export default function VerifyEmail() {
  // Out of the address bar at once: the link must not linger where it can be shared, synced or shown.
  const [token] = useState(() => takeFromAddressBar(['token']).get('token'));
  const [state, setState] = useState<State>(() => (token ? { view: 'loading' } : { view: 'missing' }));
  const headingRef = useFocusOn<HTMLHeadingElement>(state.view === 'loading' ? undefined : state.view);

  useEffect(() => {
    if (!token) return;
    let current = true;
    verifyEmail(token).then(
      ({ outcome, message }) => current && setState({ view: outcome, message }),
      (error: unknown) =>
        current &&
        setState({
          view: 'error',
          message:
            error instanceof AuthError ? error.message : 'Verification failed. The link may be invalid or expired.',
        }),
    );
    return () => {
      current = false;
    };
  }, [token]);

  const failed = state.view === 'error' || state.view === 'missing';
  return (
    <section className="auth-card" aria-labelledby="verify-heading" aria-busy={state.view === 'loading'}>
      <h1 id="verify-heading" ref={headingRef} tabIndex={-1}>
        {headings[state.view]}
      </h1>
      {state.view === 'loading' && <div className="status-spinner" aria-hidden="true" />}
      <p className={`auth-message ${failed ? 'error' : 'success'}`} role={failed ? 'alert' : 'status'}>
        {state.view === 'missing' && 'Verification token is missing.'}
        {(state.view === 'success' || state.view === 'already') &&
          (state.message || (state.view === 'already' ? 'Email already verified.' : 'Email verified successfully.'))}
        {state.view === 'error' && state.message}
      </p>
      {state.view !== 'loading' && (
        <div className="auth-actions">
          <a className="auth-button" href="/login">
            Go to Login
          </a>
          <a className="auth-button secondary" href="/">
            Home
          </a>
          {failed && (
            <button type="button" className="auth-button secondary" onClick={() => window.location.reload()}>
              Retry
            </button>
          )}
        </div>
      )}
    </section>
  );
}
