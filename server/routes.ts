import type { FastifyInstance } from 'fastify';
import healthRoutes from './modules/health/health.routes.ts';

/** Every feature's routes under /api/v1; one line per module. */
export async function registerApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
}
