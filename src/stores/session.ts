import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';
import { $workspaceId } from './workspace-choice.ts';

/** The user the session stands for, as kept under the `user` key. */
export interface SessionUserRecord {
  id: string;
  name: string;
  email: string;
}

// One persistent atom per local-storage key of the specification, so every key is written exactly as
// named and other tabs see a sign-in or sign-out at once (persistent atoms listen to `storage` events).
// Setting an atom to undefined deletes its key.
const key = (name: string) => persistentAtom<string | undefined>(name, undefined);
export const $token = key('token');
const $authToken = key('authToken');
export const $userId = key('user_id');
export const $userName = key('user_name');
export const $userEmail = key('user_email');
export const $orgId = key('org_id');
const $sessionTs = key('session_ts');
export const $user = persistentAtom<SessionUserRecord | undefined>('user', undefined, {
  encode: (value) => (value === undefined ? (undefined as unknown as string) : JSON.stringify(value)),
  decode: (text) => {
    try {
      return JSON.parse(text) as SessionUserRecord;
    } catch {
      return undefined;
    }
  },
});

/** Whether a token is held in this browser: the product's definition of signed in. */
export const $signedIn = computed($token, (token) => Boolean(token));

/** What a sign-in stores. */
export interface SessionFields {
  token: string;
  userId?: string;
  name?: string;
  email?: string;
  orgId?: string | null;
}

/** Stores a new session under every local key. */
export function storeSession(fields: SessionFields): void {
  $token.set(fields.token);
  $authToken.set(fields.token);
  $sessionTs.set(String(Date.now()));
  updateSessionUser(fields);
}

/** Fills in the user fields of the current session (after GET /profile/me, for example). */
export function updateSessionUser(fields: Omit<SessionFields, 'token'>): void {
  if (fields.userId !== undefined) $userId.set(fields.userId);
  if (fields.name !== undefined) $userName.set(fields.name);
  if (fields.email !== undefined) $userEmail.set(fields.email);
  if (fields.orgId !== undefined) $orgId.set(fields.orgId ?? undefined);
  const id = $userId.get();
  if (id) $user.set({ id, name: $userName.get() ?? '', email: $userEmail.get() ?? '' });
}

/** Removes every local key of the session. */
export function clearSession(): void {
  for (const atom of [$token, $authToken, $userId, $userName, $userEmail, $orgId, $sessionTs]) atom.set(undefined);
  $user.set(undefined);
  $workspaceId.set(undefined);
  // The offline copy of comments (which may describe patients) goes with the session that could read them.
  globalThis.localStorage?.removeItem('image_comments_v1');
}
