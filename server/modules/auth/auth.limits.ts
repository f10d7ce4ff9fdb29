import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { normalizeEmail } from '../../../contract/auth.ts';
import { tooManyRequests } from '../../http-errors.ts';

/**
 * The limits of the account routes. Every sign-in attempt is counted before its password is checked, and
 * taken back when the password was right, so people (and the browser tests, all from 127.0.0.1) who sign
 * in correctly are never slowed down, while a burst of guesses gets no more checks than the limit.
 */
export const AUTH_LIMITS = {
  /** Wrong passwords for one account from one address: guessing one password. */
  failuresPerAccountAndIp: { max: 10, timeWindow: 15 * 60_000 },
  /**
   * Wrong passwords for one account from any address: guessing one password from many addresses. Higher
   * than the per-address limit, so one address's guesses never lock the owner out elsewhere: it takes
   * guesses from at least three addresses.
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

/** One counter and the key a request counts under. */
interface Hit {
  counter: RateLimiterAbstract;
  key: string;
}

/** Takes back one hit from each counter. */
async function refund(hits: Hit[]): Promise<void> {
  await Promise.all(hits.map((hit) => hit.counter.reward(hit.key)));
}

/**
 * Counts one hit on every counter, in order, each atomically. At the first full one, the hits counted
 * are taken back (the attempt will not be made, so it must not fill any counter) and its wait in
 * milliseconds is answered; undefined when every counter had room.
 */
async function countAll(hits: Hit[]): Promise<number | undefined> {
  const counted: Hit[] = [];
  for (const hit of hits) {
    try {
      await hit.counter.consume(hit.key);
      counted.push(hit);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // The refused hit is taken back too: left on, it would outlive the attempts that filled the counter
      // and are taken back later (right passwords), and keep refusing the owner.
      await refund([...counted, hit]);
      return rejection.msBeforeNext;
    }
  }
  return undefined;
}

/** "1 minute", "15 minutes": the wait a 429 announces. */
function minutes(ms: number): string {
  const count = Math.max(1, Math.ceil(ms / 60_000));
  return count === 1 ? '1 minute' : `${count} minutes`;
}

const emailOf = (request: FastifyRequest) => normalizeEmail(String((request.body as { email?: unknown })?.email ?? ''));

/**
 * The name an account's sign-in counters go by: the address typed, plus a fingerprint of the password
 * hash when the account exists. A new password therefore starts the account's counters afresh, at every
 * address and on every replica, without having to find and delete them.
 * @example signInAccount('ada@example.org', undefined) // 'ada@example.org'
 */
export function signInAccount(email: string, passwordHash: string | undefined): string {
  if (!passwordHash) return email;
  return `${email}#${createHash('sha256').update(passwordHash).digest('base64url').slice(0, 16)}`;
}

/** The counters of the account routes, on the app's counter store (Redis when REDIS_URL is set). */
export function createAuthLimits(app: FastifyInstance) {
  const counter = (name: string, limit: { max: number; timeWindow: number }) =>
    app.createCounter(`auth-${name}`, limit);
  const failuresAccountIp = counter('fail-acct', AUTH_LIMITS.failuresPerAccountAndIp);
  const failuresAccount = counter('fail-acct-any', AUTH_LIMITS.failuresPerAccount);
  const failuresIp = counter('fail-ip', AUTH_LIMITS.failuresPerIp);
  const mailsAddress = counter('mail-addr', AUTH_LIMITS.mailsPerAddress);
  const mailsIp = counter('mail-ip', AUTH_LIMITS.mailsPerIp);
  const tokenChecks = counter('token-ip', AUTH_LIMITS.tokenChecksPerIp);
  const codeFailures = counter('code-acct', AUTH_LIMITS.codeFailuresPerAccount);

  return {
    /**
     * Counts a password attempt for `account` (see signInAccount) before the password is checked, and
     * refuses it with 429 when a counter is full. The address's counter comes first, so a spray stopped
     * there fills no account's counter. Answers `passwordWasRight`, which takes the attempt back.
     */
    async startPasswordCheck(request: FastifyRequest, account: string): Promise<{ passwordWasRight(): Promise<void> }> {
      const hits = [
        { counter: failuresIp, key: request.ip },
        { counter: failuresAccountIp, key: `${request.ip}|${account}` },
        { counter: failuresAccount, key: account },
      ];
      const wait = await countAll(hits);
      if (wait !== undefined) {
        throw tooManyRequests(
          `Too many failed sign-in attempts. Try again in ${minutes(wait)} or reset your password.`,
        );
      }
      return { passwordWasRight: () => refund(hits) };
    },

    /** Counts a mail-sending request and refuses it with 429 past the per-address or per-IP limit. */
    async checkMail(request: FastifyRequest): Promise<void> {
      const wait = await countAll([
        { counter: mailsIp, key: request.ip },
        { counter: mailsAddress, key: emailOf(request) },
      ]);
      if (wait !== undefined) throw tooManyRequests(`Too many e-mails requested. Try again in ${minutes(wait)}.`);
    },

    /**
     * Counts a code attempt (authenticator or recovery code) for the user before the code is checked, and
     * refuses it with 429 once wrong codes fill the counter. Answers `codeWasRight`, which takes it back.
     */
    async startCodeCheck(_request: FastifyRequest, userId: string): Promise<{ codeWasRight(): Promise<void> }> {
      const hits = [{ counter: codeFailures, key: userId }];
      const wait = await countAll(hits);
      if (wait !== undefined) throw tooManyRequests(`Too many wrong codes. Try again in ${minutes(wait)}.`);
      return { codeWasRight: () => refund(hits) };
    },

    /** Counts a token check and refuses it with 429 past the per-IP limit. */
    async checkToken(request: FastifyRequest): Promise<void> {
      const wait = await countAll([{ counter: tokenChecks, key: request.ip }]);
      if (wait !== undefined) throw tooManyRequests(`Too many attempts. Try again in ${minutes(wait)}.`);
    },
  };
}

/** The limits object the account routes share. */
export type AuthLimits = ReturnType<typeof createAuthLimits>;
