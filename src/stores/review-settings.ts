import { atom } from 'nanostores';
import type { AgreementReport, ReviewSettings } from '../../contract/reviews.ts';
import { api, errorMessage } from '../lib/api.ts';

/** The current workspace's review settings, as last loaded. */
export const $reviewSettings = atom<ReviewSettings | undefined>(undefined);

/** Loads the review settings (blind reads, artefact tags, tier-2 reviewers). */
export async function loadReviewSettings(): Promise<void> {
  try {
    $reviewSettings.set(await api.get('/reviews/settings').json<ReviewSettings>());
  } catch {
    $reviewSettings.set(undefined);
  }
}

/** Saves an admin's change to the review settings; resolves to an error message, or undefined on success. */
export async function saveReviewSettings(
  change: Partial<Pick<ReviewSettings, 'blind' | 'artefact_tags' | 'tier2_user_ids'>>,
): Promise<string | undefined> {
  try {
    $reviewSettings.set(await api.patch(change, '/reviews/settings').json<ReviewSettings>());
    return undefined;
  } catch (error) {
    return errorMessage(error, 'Failed to save the review settings');
  }
}

/** The agreement figures of the current workspace. */
export type AgreementState =
  { status: 'loading' } | { status: 'ready'; report: AgreementReport } | { status: 'failed'; message: string };

export const $agreement = atom<AgreementState>({ status: 'loading' });

/** Loads the agreement figures. */
export async function loadAgreement(): Promise<void> {
  try {
    $agreement.set({ status: 'ready', report: await api.get('/reviews/agreement').json<AgreementReport>() });
  } catch (error) {
    $agreement.set({ status: 'failed', message: errorMessage(error, 'Failed to load the agreement figures') });
  }
}
