import { useState } from 'react';
import { AuthError, resendVerification } from '../../stores/auth.ts';
import { FormMessage } from './FormMessage.tsx';

type Outcome = { kind: 'error' | 'success'; message: string } | undefined;

/** The "Resend verification e-mail" button and its answer, for the address the user gave. */
export function ResendVerification({ email, id }: { email: string; id: string }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();

  async function onResend() {
    setBusy(true);
    setOutcome(undefined);
    try {
      setOutcome({ kind: 'success', message: await resendVerification(email) });
    } catch (error) {
      setOutcome({
        kind: 'error',
        message: error instanceof AuthError ? error.message : 'Something went wrong. Try again.',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="resend">
      <button type="button" className="auth-button secondary" onClick={onResend} disabled={busy || !email}>
        {busy ? 'Sending...' : 'Resend verification e-mail'}
      </button>
      <FormMessage id={id} kind={outcome?.kind ?? 'success'} message={outcome?.message} />
    </div>
  );
}
