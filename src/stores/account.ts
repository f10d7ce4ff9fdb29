import { atom } from 'nanostores';
import type { EmailChangedResponse } from '../../contract/account.ts';
import { normalizeEmail, type MessageResponse } from '../../contract/auth.ts';
import type { ProfileResponse } from '../../contract/profile.ts';
import { api, errorMessage } from '../lib/api.ts';
import { $userEmail, $userName, updateSessionUser } from './session.ts';
import { saveSettings, type DashboardSettings } from './settings.ts';

/** What the account part of Settings last said: a sent confirmation link, a changed address, or a failure. */
export const $accountNotice = atom<{ kind: 'error' | 'ok'; text: string } | undefined>(undefined);

/** Renames the account on the server (the header and the profile show it); a failure is announced. */
export async function saveFullName(name: string): Promise<boolean> {
  try {
    const profile = await api.url('/profile/me').patch({ name }).json<ProfileResponse>();
    updateSessionUser({ name: profile.name });
    return true;
  } catch (error) {
    $accountNotice.set({ kind: 'error', text: errorMessage(error, 'Failed to save your name.') });
    return false;
  }
}

/** Asks for a confirmation link at the new address; the address changes only once it is opened. */
export async function requestEmailChange(email: string, password: string): Promise<boolean> {
  try {
    const answer = await api.url('/account/email').post({ email, password }).json<MessageResponse>();
    $accountNotice.set({ kind: 'ok', text: answer.message });
    return true;
  } catch (error) {
    $accountNotice.set({ kind: 'error', text: errorMessage(error, 'Could not ask for the change. Try again.') });
    return false;
  }
}

/** Opens a confirmation link's token: the account signs in with the new address from now on. */
export async function confirmEmailChange(token: string): Promise<void> {
  try {
    const answer = await api.url('/account/email/confirm').post({ token }).json<EmailChangedResponse>();
    updateSessionUser({ email: answer.email });
    $accountNotice.set({ kind: 'ok', text: `${answer.message} You now sign in with ${answer.email}.` });
  } catch (error) {
    $accountNotice.set({
      kind: 'error',
      text: errorMessage(error, 'This confirmation link is invalid, expired or already used.'),
    });
  }
}

/**
 * Saves the Settings form: time zone, date format and summaries in this browser ('Saved'), the name
 * on the server when it changed, and, when the address changed, a request for a confirmation link.
 * Resolves true when everything asked for went through.
 */
export async function saveAccountSettings(form: DashboardSettings, password: string): Promise<boolean> {
  $accountNotice.set(undefined);
  const name = form.fullName.trim();
  const email = normalizeEmail(form.email);
  let ok = true;
  if (name && name !== ($userName.get() ?? '')) ok = (await saveFullName(name)) && ok;
  if (email && email !== normalizeEmail($userEmail.get() ?? '')) ok = (await requestEmailChange(email, password)) && ok;
  // The address on record stays the current one until the link is opened.
  saveSettings({ ...form, fullName: ok ? name : form.fullName, email: $userEmail.get() ?? '' });
  return ok;
}
