import { atom } from 'nanostores';
import type { MfaEnrolmentResponse, MfaStatusResponse, RecoveryCodesResponse } from '../../contract/account.ts';
import type { MessageResponse } from '../../contract/auth.ts';
import { api, errorMessage } from '../lib/api.ts';

/**
 * The MFA part of Settings: the server's state, and the step the user is in. `enrolling` shows the QR
 * code and asks for the first code; `codes` shows the recovery codes once; `disabling` asks for a code
 * before turning MFA off.
 */
export type MfaState =
  | { step: 'loading' }
  | { step: 'unavailable'; message: string }
  | { step: 'off' }
  | { step: 'enrolling'; secret: string; qrSvg: string }
  | { step: 'codes'; recoveryCodes: string[] }
  | { step: 'on'; recoveryCodesLeft: number }
  | { step: 'disabling'; recoveryCodesLeft: number };

/** The MFA section of Settings. */
export const $mfa = atom<MfaState>({ step: 'loading' });

/** The last outcome to announce (an error or a confirmation), with its kind. */
export const $mfaMessage = atom<{ kind: 'error' | 'ok'; text: string } | undefined>(undefined);

/** Whether a call is running (the buttons wait for it). */
export const $mfaBusy = atom(false);

async function run(work: () => Promise<void>): Promise<void> {
  $mfaBusy.set(true);
  $mfaMessage.set(undefined);
  try {
    await work();
  } finally {
    $mfaBusy.set(false);
  }
}

/** Loads whether MFA is on for the signed-in user. */
export async function loadMfa(): Promise<void> {
  $mfa.set({ step: 'loading' });
  try {
    const status = await api.url('/account/mfa').get().json<MfaStatusResponse>();
    $mfa.set(status.enabled ? { step: 'on', recoveryCodesLeft: status.recovery_codes_left } : { step: 'off' });
  } catch (error) {
    $mfa.set({ step: 'unavailable', message: errorMessage(error, 'Could not load the MFA setting.') });
  }
}

/** Starts enrolment: the server makes a secret and its QR code. */
export function startEnrolment(): Promise<void> {
  return run(async () => {
    try {
      const answer = await api.url('/account/mfa/enrol').post().json<MfaEnrolmentResponse>();
      $mfa.set({ step: 'enrolling', secret: answer.secret, qrSvg: answer.qr_svg });
    } catch (error) {
      $mfaMessage.set({ kind: 'error', text: errorMessage(error, 'Could not start the set-up. Try again.') });
    }
  });
}

/** Confirms enrolment with the first code; the recovery codes are then shown, this once. */
export function confirmEnrolment(code: string): Promise<void> {
  return run(async () => {
    try {
      const answer = await api.url('/account/mfa/confirm').post({ code }).json<RecoveryCodesResponse>();
      $mfa.set({ step: 'codes', recoveryCodes: answer.recovery_codes });
      $mfaMessage.set({ kind: 'ok', text: answer.message });
    } catch (error) {
      $mfaMessage.set({ kind: 'error', text: errorMessage(error, 'Could not check the code. Try again.') });
    }
  });
}

/** Leaves a set-up that was not confirmed; nothing changes for sign-in. */
export function cancelEnrolment(): void {
  $mfaMessage.set(undefined);
  $mfa.set({ step: 'off' });
}

/** Closes the recovery codes once the user has kept them. */
export function recoveryCodesKept(): void {
  const state = $mfa.get();
  if (state.step === 'codes') $mfa.set({ step: 'on', recoveryCodesLeft: state.recoveryCodes.length });
}

/** Asks for a code before turning MFA off (unticking the box). */
export function askToDisable(): void {
  const state = $mfa.get();
  if (state.step === 'on') $mfa.set({ step: 'disabling', recoveryCodesLeft: state.recoveryCodesLeft });
}

/** Keeps MFA on after all (ticking the box again). */
export function keepMfaOn(): void {
  const state = $mfa.get();
  $mfaMessage.set(undefined);
  if (state.step === 'disabling') $mfa.set({ step: 'on', recoveryCodesLeft: state.recoveryCodesLeft });
}

/** Turns MFA off with an authenticator or recovery code. */
export function disableMfa(code: string): Promise<void> {
  return run(async () => {
    try {
      const answer = await api.url('/account/mfa/disable').post({ code }).json<MessageResponse>();
      $mfa.set({ step: 'off' });
      $mfaMessage.set({ kind: 'ok', text: answer.message });
    } catch (error) {
      $mfaMessage.set({ kind: 'error', text: errorMessage(error, 'Could not check the code. Try again.') });
    }
  });
}
