import { atom } from 'nanostores';
import type { WretchError } from 'wretch';
import type { ProfileResponse, UpdateProfileRequest } from '../../contract/profile.ts';
import { api, API_TIMEOUT_MS } from '../lib/api.ts';
import { $token, clearSession, updateSessionUser } from './session.ts';

/** The profile form's fields (SPEC §3: displayName, role, institution, bio, avatar). */
export interface ProfileForm {
  displayName: string;
  role: string;
  institution: string;
  bio: string;
  avatar: string;
}

/** The profile screen. */
export interface ProfileState {
  status: 'loading' | 'ready' | 'load-failed' | 'session-missing';
  saved: ProfileForm;
  draft: ProfileForm;
  editing: boolean;
  saving: boolean;
  message: string | undefined;
  error: string | undefined;
}

/** How long the session-missing notice stays before going to /login ('Redirecting in ~6s...'). */
export const SESSION_NOTICE_MS = 6_000;

const empty: ProfileForm = { displayName: '', role: '', institution: '', bio: '', avatar: '' };
const initial: ProfileState = {
  status: 'loading',
  saved: empty,
  draft: empty,
  editing: false,
  saving: false,
  message: undefined,
  error: undefined,
};

export const $profile = atom<ProfileState>(initial);

const patch = (values: Partial<ProfileState>) => $profile.set({ ...$profile.get(), ...values });

// The profile screen answers a 401 with its own notice and a delayed redirect (SPEC §4) instead of the
// client's immediate one, so its calls go through the same client without that one middleware.
const profileApi = () =>
  api
    .middlewares([], true)
    .auth(`Bearer ${$token.get() ?? ''}`)
    .options({ signal: AbortSignal.timeout(API_TIMEOUT_MS) });

function toForm(profile: ProfileResponse): ProfileForm {
  return {
    displayName: profile.name,
    role: profile.role ?? '',
    institution: profile.institution ?? '',
    bio: profile.bio ?? '',
    avatar: profile.avatar_url ?? '',
  };
}

let redirectTimer: ReturnType<typeof setTimeout> | undefined;
function sessionMissing(): void {
  patch({ status: 'session-missing', editing: false, saving: false });
  clearTimeout(redirectTimer);
  redirectTimer = setTimeout(() => {
    clearSession();
    window.location.assign('/login');
  }, SESSION_NOTICE_MS);
}

/** Loads GET /profile/me into the read-only form. */
export async function loadProfile(): Promise<void> {
  $profile.set(initial);
  try {
    const profile = await profileApi().get('/profile/me').json<ProfileResponse>();
    const form = toForm(profile);
    patch({ status: 'ready', saved: form, draft: form });
  } catch (error) {
    if ((error as WretchError).status === 401) return sessionMissing();
    patch({ status: 'load-failed', error: 'Failed to load profile.' });
  }
}

/** Makes the form editable. */
export function startEditing(): void {
  patch({ editing: true, message: undefined, error: undefined });
}

/** Changes one field of the draft. */
export function editProfileField(field: keyof ProfileForm, value: string): void {
  const state = $profile.get();
  patch({ draft: { ...state.draft, [field]: value }, message: undefined });
}

/** Drops the draft and restores the saved values. */
export function cancelEditing(): void {
  const state = $profile.get();
  patch({ editing: false, draft: state.saved, error: undefined, message: undefined });
}

/** Saves the draft with PATCH /profile/me; the display name is required. */
export async function saveProfile(): Promise<void> {
  const { draft } = $profile.get();
  if (!draft.displayName.trim()) return patch({ error: 'Display name is required.' });
  patch({ saving: true, error: undefined, message: undefined });
  const body: UpdateProfileRequest = {
    name: draft.displayName.trim(),
    role: draft.role,
    institution: draft.institution,
    bio: draft.bio,
  };
  try {
    const profile = await profileApi().patch(body, '/profile/me').json<ProfileResponse>();
    const form = toForm(profile);
    updateSessionUser({ name: profile.name });
    patch({ saving: false, editing: false, saved: form, draft: form, message: 'Profile saved.' });
  } catch (error) {
    if ((error as WretchError).status === 401) return sessionMissing();
    patch({ saving: false, error: 'Failed to save profile.' });
  }
}
