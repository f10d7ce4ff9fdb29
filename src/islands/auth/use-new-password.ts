import { useState } from 'react';
import { authMessages } from '../../../contract/auth.ts';
import { isPasswordAcceptable } from '../../lib/password-rules.ts';
import { useFocusOn } from './use-focus-on.ts';

/** What an error of a new-password form points at. */
export type NewPasswordField = 'password' | 'confirm' | 'form';

/**
 * State of a form that asks for a new password twice (register, reset): both entries, the busy flag, the
 * error, and refs that take focus to the field or message at fault.
 */
export function useNewPassword(mismatchMessage: string) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; field: NewPasswordField }>();
  const passwordRef = useFocusOn<HTMLInputElement>(error?.field === 'password' ? error : undefined);
  const confirmRef = useFocusOn<HTMLInputElement>(error?.field === 'confirm' ? error : undefined);
  const messageRef = useFocusOn<HTMLParagraphElement>(error?.field === 'form' ? error : undefined);

  /** Shows the first broken rule (match, then strength); true when the password may be sent. */
  function validate(): boolean {
    if (password !== confirm) setError({ message: mismatchMessage, field: 'confirm' });
    else if (!isPasswordAcceptable(password)) setError({ message: authMessages.weakPassword, field: 'password' });
    else return true;
    return false;
  }

  return {
    password,
    setPassword,
    confirm,
    setConfirm,
    busy,
    setBusy,
    error,
    setError,
    passwordRef,
    confirmRef,
    messageRef,
    validate,
  };
}
