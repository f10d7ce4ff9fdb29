import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import {
  accountMessages,
  mfaCodeRequest,
  mfaEnrolmentResponse,
  mfaStatusResponse,
  recoveryCodesResponse,
} from '../../../contract/account.ts';
import { messageResponse } from '../../../contract/auth.ts';
import { errorResponses } from '../../../contract/errors.ts';
import { badRequest, conflict } from '../../http-errors.ts';
import { currentUser } from '../auth/auth.guard.ts';
import type { AuthContext } from '../auth/auth.context.ts';
import { hashRecoveryCode, newRecoveryCode, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.ts';
import { checkSecondFactor } from './second-factor.ts';
import { newTotpSecret, totpStep, totpUri } from './totp.ts';

/** GET /account/mfa, POST /account/mfa/enrol, /account/mfa/confirm and /account/mfa/disable. */
export function mfaRoutes(app: FastifyInstance, auth: AuthContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const mfa = app.repos.mfa;
  const guarded = { preHandler: app.authenticate };

  routes.get(
    '/account/mfa',
    { ...guarded, schema: { response: { 200: mfaStatusResponse, ...errorResponses(401) } } },
    async (request) => {
      const { id } = currentUser(request);
      const enabled = await mfa.isEnabled(id);
      return { enabled, recovery_codes_left: enabled ? await mfa.recoveryCodesLeft(id) : 0 };
    },
  );

  routes.post(
    '/account/mfa/enrol',
    { ...guarded, schema: { response: { 200: mfaEnrolmentResponse, ...errorResponses(401, 409) } } },
    async (request) => {
      const user = currentUser(request);
      const secret = newTotpSecret();
      // Starting again replaces a set-up never confirmed; a confirmed authenticator stays until turned off.
      if (!(await mfa.startEnrolment(user.id, secret, app.clock()))) throw conflict(accountMessages.mfaAlreadyOn);
      const uri = totpUri(secret, user.email);
      const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
      return { secret, otpauth_uri: uri, qr_svg: svg };
    },
  );

  routes.post(
    '/account/mfa/confirm',
    {
      ...guarded,
      schema: { body: mfaCodeRequest, response: { 200: recoveryCodesResponse, ...errorResponses(400, 401, 409, 429) } },
    },
    async (request) => {
      const user = currentUser(request);
      const now = app.clock();
      const factor = await mfa.find(user.id);
      if (!factor) throw badRequest(accountMessages.mfaNotStarted);
      if (factor.confirmedAt) throw conflict(accountMessages.mfaAlreadyOn);
      // Counted before the check, so concurrent guesses get no more checks than the limit.
      const attempt = await auth.limits.startCodeCheck(request, user.id);
      const step = totpStep(factor.secret, request.body.code.replace(/\s/g, ''), now);
      if (step === undefined || !(await mfa.useStep(user.id, step))) throw badRequest(accountMessages.wrongCode);
      await attempt.codeWasRight();
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await mfa.confirm(
        user.id,
        codes.map((c) => hashRecoveryCode(normalizeRecoveryCode(c)!)),
        now,
      );
      await auth.record(request, 'auth.mfa_enabled', user.id);
      return { message: accountMessages.mfaEnabled, recovery_codes: codes };
    },
  );

  routes.post(
    '/account/mfa/disable',
    {
      ...guarded,
      schema: { body: mfaCodeRequest, response: { 200: messageResponse, ...errorResponses(400, 401, 429) } },
    },
    async (request) => {
      const user = currentUser(request);
      if (!(await mfa.isEnabled(user.id))) throw badRequest(accountMessages.mfaNotOn);
      const proof = await checkSecondFactor(request, auth, mfa, user.id, request.body.code, app.clock());
      if (!proof) throw badRequest(accountMessages.wrongCode);
      await mfa.remove(user.id);
      await auth.record(request, 'auth.mfa_disabled', user.id, { with: proof });
      return { message: accountMessages.mfaDisabled };
    },
  );
}
