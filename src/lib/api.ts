import wretch, { type ConfiguredMiddleware, type WretchError } from 'wretch';
import { $token, clearSession } from '../stores/session.ts';

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

/** The one HTTP client of the browser: base URL, bearer token, 10 s timeout and the global 401 rule. */
export const api = wretch(apiBase).middlewares([bearer, timeout, sessionGuard]);

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
