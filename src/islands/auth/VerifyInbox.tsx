import { ResendVerification } from './ResendVerification.tsx';
import { useFocusOn } from './use-focus-on.ts';

/** The check-your-inbox screen shown after registering, or at /register?verify={email}. */
export function VerifyInbox({ email, onBack }: { email: string; onBack: () => void }) {
  // Focus moves to the new heading so screen readers announce that the screen changed.
  const headingRef = useFocusOn<HTMLHeadingElement>(email);
  return (
    <section className="auth-card" aria-labelledby="verify-heading">
      <h1 id="verify-heading" ref={headingRef} tabIndex={-1}>
        Check your inbox
      </h1>
      <p className="lead" role="status">
        We sent a verification link to <strong>{email}</strong>. Open it to activate your account, then sign in.
      </p>
      <p>The link works for 24 hours. No mail after a few minutes? Look in your spam folder, or have it sent again.</p>
      <ResendVerification email={email} id="resend-message" />
      <div className="auth-actions">
        <a className="auth-button" href="/login">
          Go to Login
        </a>
        <button type="button" className="auth-button secondary" onClick={onBack}>
          Back
        </button>
      </div>
    </section>
  );
}
