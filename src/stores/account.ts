import { atom } from 'nanostores';
import type { DatePreferencesBody, EmailChangedResponse } from '../../contract/account.ts';
import { normalizeEmail, type MessageResponse } from '../../contract/auth.ts';
import type { ProfileResponse } from '../../contract/profile.ts';
import { api, backgroundApi, errorMessage } from '../lib/api.ts';
import { $userEmail, $userName, updateSessionUser } from './session.ts';
import { $settings, saveSettings, type DashboardSettings } from './settings.ts';

/** What the account part of Settings last said: a sent confirmation link, a changed address, or a failure. */
export const $accountNotice = atom<{ kind: 'error' | 'ok'; text: string } | undefined>(undefined);

/**
 * Loads the time zone and date format kept on the server, so every browser the user signs in from shows
 * dates alike; this browser's own choice stays when the server cannot be reached.
 */
export async function loadDatePreferences(): Promise<void> {
  try {
    const prefs = await backgroundApi.url('/account/preferences').get().json<DatePreferencesBody>();
    $settings.set({ ...$settings.get(), timezone: prefs.time_zone, dateFormat: prefs.date_format });
  } catch {
    // Offline or signed out: the dates keep the choice stored in this browser.
  }
}

/** Keeps the time zone and date format on the server; a failure is announced. */
async function saveDatePreferences(form: DashboardSettings): Promise<boolean> {
  try {
    await api.url('/account/preferences').put({ time_zone: form.timezone, date_format: form.dateFormat }).res();
    return true;
  } catch (error) {
    $accountNotice.set({ kind: 'error', text: errorMessage(error, 'Failed to save the time zone and date format.') });
    return false;
  }
}

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
 * Saves the Settings form: time zone and date format on the server and in this browser, summaries in
 * this browser ('Saved'), the name on the server when it changed, and, when the address changed, a
 * request for a confirmation link.
 * Resolves true when everything asked for went through.
 */
export async function saveAccountSettings(form: DashboardSettings, password: string): Promise<boolean> {
  $accountNotice.set(undefined);
  const name = form.fullName.trim();
  const email = normalizeEmail(form.email);
  let ok = await saveDatePreferences(form);
  if (name && name !== ($userName.get() ?? '')) ok = (await saveFullName(name)) && ok;
  if (email && email !== normalizeEmail($userEmail.get() ?? '')) ok = (await requestEmailChange(email, password)) && ok;
  // The address on record stays the current one until the link is opened.
  saveSettings({ ...form, fullName: ok ? name : form.fullName, email: $userEmail.get() ?? '' });
  return ok;
}
