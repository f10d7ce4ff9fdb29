import wretch, { type ConfiguredMiddleware, type WretchError } from 'wretch';
import { WORKSPACE_HEADER, WORKSPACE_NOT_FOUND } from '../../contract/workspaces.ts';
import { $token, clearSession } from '../stores/session.ts';
import { $workspaceId } from '../stores/workspace-choice.ts';

import { apiBase } from './api-base.ts';

/** Default timeout of every API call. */
export const API_TIMEOUT_MS = 10_000;

// Paths whose 401 means "wrong credentials", not "session gone": they never trigger the global rule.
const noSessionPaths = [
  '/auth/login',
  '/auth/register',
  '/auth/forgot-password',
  '/auth/reset-password',
  '/auth/validate-reset-token',
  '/auth/verify/',
];

/** Whether a 401 from this URL must clear the session and send the user to /login. */
export function endsSessionOn401(url: string): boolean {
  const path = new URL(url, 'http://x').pathname;
  return !noSessionPaths.some((p) => path.includes(p));
}

const bearer: ConfiguredMiddleware = (next) => (url, opts) => {
  const token = $token.get();
  const headers = new Headers(opts.headers as HeadersInit | undefined);
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  // Every call acts in the workspace chosen in the header's switcher (the personal one when none is).
  const workspaceId = $workspaceId.get();
  if (workspaceId && !headers.has(WORKSPACE_HEADER)) headers.set(WORKSPACE_HEADER, workspaceId);
  return next(url, { ...opts, headers });
};

const timeout: ConfiguredMiddleware = (next) => (url, opts) =>
  next(url, opts.signal ? opts : { ...opts, signal: AbortSignal.timeout(API_TIMEOUT_MS) });

const sessionGuard: ConfiguredMiddleware = (next) => async (url, opts) => {
  const response = await next(url, opts);
  if (response.status === 401 && endsSessionOn401(url)) {
    clearSession();
    window.location.assign('/login');
  }
  return response;
};

// Removed from the chosen workspace (or it is gone): the dashboard falls back to the personal one.
const workspaceGuard: ConfiguredMiddleware = (next) => async (url, opts) => {
  const response = await next(url, opts);
  if (response.status === 404 && $workspaceId.get()) {
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { detail?: unknown } | undefined;
    if (body?.detail === WORKSPACE_NOT_FOUND) $workspaceId.set(undefined);
  }
  return response;
};

/** The one HTTP client of the browser: base URL, bearer token, workspace, 10 s timeout and the global 401 rule. */
export const api = wretch(apiBase).middlewares([bearer, timeout, sessionGuard, workspaceGuard]);

/**
 * The same client without the global 401 rule, for what the header loads in the background: on the
 * profile page a 401 must show that page's own notice (SPEC §4), not redirect at once.
 */
export const backgroundApi = wretch(apiBase).middlewares([bearer, timeout]);

/**
 * The message to show for a failed call: the server's `detail`, else its `message`, else the fallback.
 * @example errorMessage(error, 'Upload failed') // "File type .exe is not supported"
 */
export function errorMessage(error: unknown, fallback: string): string {
  const body = (error as WretchError | undefined)?.json as { detail?: unknown; message?: unknown } | undefined;
  if (body && typeof body.detail === 'string' && body.detail) return body.detail;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return fallback;
}
