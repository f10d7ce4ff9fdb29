import type { SubmitEvent } from 'react';
import { AuthError, resetPassword } from '../../stores/auth.ts';
import { PasswordField } from './fields.tsx';
import { FormMessage } from './FormMessage.tsx';
import { StrengthBar } from './StrengthBar.tsx';
import { useNewPassword } from './use-new-password.ts';

const MISMATCH = 'Passwords do not match.';

/** The reset form: new password twice, show/hide toggles, the strength bar; calls onDone with the password. */
export function ResetPasswordForm(props: { token: string; email: string; onDone: (password: string) => void }) {
  const { password, setPassword, confirm, setConfirm, busy, setBusy, error, setError, ...form } =
    useNewPassword(MISMATCH);
  const { passwordRef, confirmRef, messageRef } = form;

  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    if (!form.validate()) return;
    setBusy(true);
    setError(undefined);
    try {
      await resetPassword(props.token, props.email, password);
      props.onDone(password);
    } catch (failure) {
      const message = failure instanceof AuthError ? failure.message : 'Failed to reset password. Please try again.';
      setError({ message, field: 'form' });
      setBusy(false);
    }
  }

  const errorFor = (field: 'password' | 'confirm') => (error?.field === field ? 'reset-message' : undefined);
  return (
    <form onSubmit={onSubmit} aria-busy={busy}>
      <PasswordField
        id="reset-password"
        label="New Password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        minLength={8}
        ref={passwordRef}
        errorId={errorFor('password')}
        describedBy="reset-strength"
      />
      <StrengthBar id="reset-strength" password={password} />
      <PasswordField
        id="reset-confirm"
        label="Confirm New Password"
        value={confirm}
        onChange={setConfirm}
        autoComplete="new-password"
        minLength={8}
        ref={confirmRef}
        errorId={errorFor('confirm')}
      />
      <FormMessage id="reset-message" kind="error" message={error?.message} ref={messageRef} />
      <button className="auth-button" type="submit" disabled={busy}>
        {busy ? 'Resetting Password...' : 'Reset Password'}
      </button>
    </form>
  );
}
