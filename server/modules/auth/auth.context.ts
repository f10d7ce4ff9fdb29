import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MailMessage } from '../../mail/mailer.ts';
import { createAuditRepository } from '../audit/audit.repository.ts';
import { createAuthLimits, signInAccount } from './auth.limits.ts';
import { createAuthTokensRepository } from './auth-tokens.repository.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { createUsersRepository } from './users.repository.ts';

/** Everything the account routes share: repositories, limits, audit, mail and the timing-safe password check. */
export function createAuthContext(app: FastifyInstance) {
  const audit = createAuditRepository({ db: app.db });
  // Unknown e-mails are checked against this hash so that they cost as much time as known ones.
  let dummyHash: Promise<string> | undefined;
  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending]);
  });
  /** Runs `work` after the answer; its failure is logged, never sent. Close waits for it. */
  const afterAnswer = (request: FastifyRequest, what: string, work: () => Promise<unknown>) => {
    const running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .then(
        () => undefined,
        (error: unknown) => request.log.error({ err: error }, `${what} failed`),
      )
      .finally(() => pending.delete(running));
    pending.add(running);
  };

  const limits = createAuthLimits(app);

  /** Checks a password against the user's hash, or a dummy hash when there is no such user. */
  async function passwordMatches(passwordHash: string | undefined, password: string): Promise<boolean> {
    dummyHash ??= hashPassword('dummy password that matches nothing');
    const matches = await verifyPassword(passwordHash ?? (await dummyHash), password);
    return passwordHash !== undefined && matches;
  }

  return {
    users: createUsersRepository({ db: app.db }),
    tokens: createAuthTokensRepository({ db: app.db }),
    limits,
    siteUrl: app.config.publicSiteUrl,

    /**
     * Whether `password` is the account's (`passwordHash` undefined for an unknown `email`). The attempt is
     * counted against the sign-in limits before the costly hash check, atomically, and refused with 429
     * when they are full; a right password takes it back.
     */
    async passwordAttempt(
      request: FastifyRequest,
      email: string,
      passwordHash: string | undefined,
      password: string,
    ): Promise<boolean> {
      const attempt = await limits.startPasswordCheck(request, signInAccount(email, passwordHash));
      if (!(await passwordMatches(passwordHash, password))) return false;
      await attempt.passwordWasRight();
      return true;
    },

    /** Records an audit event for the request's IP; never pass a password or a token in `detail`. */
    async record(request: FastifyRequest, action: string, userId: string | null, detail?: Record<string, unknown>) {
      await audit.record({ userId, action, ip: request.ip, detail, at: app.clock() });
    },

    /**
     * Sends the mail after the answer: the answer then takes as long whether or not the address has an
     * account (no enumeration by timing), and a mail outage never fails a request. Close waits for it.
     */
    sendLater(request: FastifyRequest, message: MailMessage): void {
      afterAnswer(request, `mail "${message.subject}"`, () => app.mailer.send(message));
    },

    afterAnswer,
  };
}

export type AuthContext = ReturnType<typeof createAuthContext>;
