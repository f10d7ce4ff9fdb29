import type { FastifyInstance } from 'fastify';
import { emailChangeRoutes } from '../email-change/email-change.routes.ts';
import { mfaRoutes } from '../mfa/mfa.routes.ts';
import { createAuthContext } from './auth.context.ts';
import { passwordRoutes } from './password.routes.ts';
import { registrationRoutes } from './registration.routes.ts';
import { sessionRoutes } from './session.routes.ts';

/**
 * Every /auth route (registration and verification, sign-in and sign-out, password reset) and the
 * account-security routes under /account, which share their limits and audit.
 */
export default async function authRoutes(app: FastifyInstance): Promise<void> {
  const auth = createAuthContext(app);
  registrationRoutes(app, auth);
  sessionRoutes(app, auth);
  passwordRoutes(app, auth);
  mfaRoutes(app, auth);
  emailChangeRoutes(app, auth);
}
