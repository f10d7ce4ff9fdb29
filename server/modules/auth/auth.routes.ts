import type { FastifyInstance } from 'fastify';
import { createAuthContext } from './auth.context.ts';
import { passwordRoutes } from './password.routes.ts';
import { registrationRoutes } from './registration.routes.ts';
import { sessionRoutes } from './session.routes.ts';

/** Every /auth route: registration and verification, sign-in and sign-out, password reset. */
export default async function authRoutes(app: FastifyInstance): Promise<void> {
  const auth = createAuthContext(app);
  registrationRoutes(app, auth);
  sessionRoutes(app, auth);
  passwordRoutes(app, auth);
}
