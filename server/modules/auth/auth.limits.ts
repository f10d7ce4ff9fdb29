import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizeEmail } from '../../../contract/auth.ts';
import { tooManyRequests } from '../../http-errors.ts';

/**
 * The limits of the account routes. Only failed sign-ins count against the sign-in limits, so people
 * (and the browser tests, all from 127.0.0.1) who sign in correctly are never slowed down.
 */
export const AUTH_LIMITS = {
  /** Wrong passwords for one account from one address: guessing one password. */
  failuresPerAccountAndIp: { max: 10, timeWindow: 15 * 60_000 },
  /**
   * Wrong passwords for one account from any address: guessing one password from many addresses. Higher
   * than the per-address limit, so someone else's guesses lock the owner out only after a real flood.
   */
  failuresPerAccount: { max: 30, timeWindow: 15 * 60_000 },
  /** Wrong passwords from one address over all accounts: password spraying. */
  failuresPerIp: { max: 100, timeWindow: 15 * 60_000 },
  /** Mails asked for one address: no one's inbox can be flooded through us. */
  mailsPerAddress: { max: 5, timeWindow: 60 * 60_000 },
  /** Mails asked from one IP over all addresses; high enough for a whole browser-test run from 127.0.0.1. */
  mailsPerIp: { max: 200, timeWindow: 60 * 60_000 },
  /**
   * Token checks (verify, validate, reset) from one IP. Guessing a 256-bit token is hopeless anyway; this
   * only stops a flood, and leaves room for a browser-test run verifying an account every second.
   */
  tokenChecksPerIp: { max: 300, timeWindow: 60_000 },
  /**
   * Wrong authenticator or recovery codes for one account, from any address: a six-digit code is a
   * million guesses, so a handful per quarter hour leaves an attacker odds of about one in 35,000 a day.
   */
  codeFailuresPerAccount: { max: 5, timeWindow: 15 * 60_000 },
} as const;

// The account a code is checked for is known only to the handler; it lends it to the key generator here.
const codeSubjects = new WeakMap<FastifyRequest, string>();

const emailOf = (request: FastifyRequest) => normalizeEmail(String((request.body as { email?: unknown })?.email ?? ''));

/** "1 minute", "15 minutes": the wait a 429 announces. */
function minutes(ms: number): string {
  const count = Math.max(1, Math.ceil(ms / 60_000));
  return count === 1 ? '1 minute' : `${count} minutes`;
}

/** The counters of the account routes, on the app's rate-limit store (Redis when REDIS_URL is set). */
export function createAuthLimits(app: FastifyInstance) {
  const limiter = (name: string, limit: { max: number; timeWindow: number }, key: (r: FastifyRequest) => string) =>
    app.createRateLimit({ ...limit, keyGenerator: (request) => `auth-${name}:${key(request)}` });
  const failuresAccount = limiter('fail-acct', AUTH_LIMITS.failuresPerAccountAndIp, (r) => `${r.ip}|${emailOf(r)}`);
  // Keyed by the address typed, known or not: a locked unknown address answers like a locked account.
  const failuresAccountAnyIp = limiter('fail-acct-any', AUTH_LIMITS.failuresPerAccount, emailOf);
  const failuresIp = limiter('fail-ip', AUTH_LIMITS.failuresPerIp, (r) => r.ip);
  const mailsAddress = limiter('mail-addr', AUTH_LIMITS.mailsPerAddress, emailOf);
  const mailsIp = limiter('mail-ip', AUTH_LIMITS.mailsPerIp, (r) => r.ip);
  const tokenChecks = limiter('token-ip', AUTH_LIMITS.tokenChecksPerIp, (r) => r.ip);
  const codeFailures = limiter('code-acct', AUTH_LIMITS.codeFailuresPerAccount, (r) => codeSubjects.get(r) ?? '');

  return {
    /** Refuses a sign-in with 429 once any failure counter is full; counts nothing itself. */
    async checkSignIn(request: FastifyRequest): Promise<void> {
      for (const check of [failuresAccount, failuresAccountAnyIp, failuresIp]) {
        const state = await check(request, { increment: false });
        if (state.isAllowed || state.remaining > 0) continue;
        throw tooManyRequests(
          `Too many failed sign-in attempts. Try again in ${minutes(state.ttl)} or reset your password.`,
        );
      }
    },

    /** Counts one failed sign-in against every failure counter. */
    async countFailure(request: FastifyRequest): Promise<void> {
      await failuresAccount(request);
      await failuresAccountAnyIp(request);
      await failuresIp(request);
    },

    /** Counts a mail-sending request and refuses it with 429 past the per-address or per-IP limit. */
    async checkMail(request: FastifyRequest): Promise<void> {
      for (const check of [mailsIp, mailsAddress]) {
        const state = await check(request);
        if (!state.isAllowed && state.isExceeded) {
          throw tooManyRequests(`Too many e-mails requested. Try again in ${minutes(state.ttl)}.`);
        }
      }
    },

    /** Refuses a code check for the user with 429 once their wrong codes fill the counter; counts nothing. */
    async checkCode(request: FastifyRequest, userId: string): Promise<void> {
      codeSubjects.set(request, userId);
      const state = await codeFailures(request, { increment: false });
      if (state.isAllowed || state.remaining > 0) return;
      throw tooManyRequests(`Too many wrong codes. Try again in ${minutes(state.ttl)}.`);
    },

    /** Counts one wrong code against the user's counter. */
    async countCodeFailure(request: FastifyRequest, userId: string): Promise<void> {
      codeSubjects.set(request, userId);
      await codeFailures(request);
    },

    /** Counts a token check and refuses it with 429 past the per-IP limit. */
    async checkToken(request: FastifyRequest): Promise<void> {
      const state = await tokenChecks(request);
      if (!state.isAllowed && state.isExceeded)
        throw tooManyRequests(`Too many attempts. Try again in ${minutes(state.ttl)}.`);
    },
  };
}

export type AuthLimits = ReturnType<typeof createAuthLimits>;
