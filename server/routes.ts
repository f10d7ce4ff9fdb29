import type { FastifyInstance } from 'fastify';
import healthRoutes from './modules/health/health.routes.ts';
import contactRoutes from './modules/contact/contact.routes.ts';
import analyticsRoutes from './modules/analytics/analytics.routes.ts';
import uploadsRoutes from './modules/uploads/uploads.routes.ts';
import seriesRoutes from './modules/uploads/series.routes.ts';
import usageRoutes from './modules/ingest/usage.routes.ts';
import previewsRoutes from './modules/previews/previews.routes.ts';
import qcRoutes from './modules/qc/qc.routes.ts';
import qcBatchRoutes from './modules/qc/qc-batch.routes.ts';
import metricsRoutes from './modules/metrics/metrics.routes.ts';
import authRoutes from './modules/auth/auth.routes.ts';
import profileRoutes from './modules/profile/profile.routes.ts';
import referenceRoutes from './modules/reference/reference.routes.ts';
import deidentificationRoutes from './modules/deidentification/deidentification.routes.ts';
import blankingRoutes from './modules/deidentification/blanking.routes.ts';
import workspacesRoutes from './modules/workspaces/workspaces.routes.ts';
import invitesRoutes from './modules/workspaces/invites.routes.ts';
import preferencesRoutes from './modules/preferences/preferences.routes.ts';
import commentsRoutes from './modules/comments/comments.routes.ts';
import reviewsRoutes from './modules/reviews/reviews.routes.ts';
import reviewQueueRoutes from './modules/reviews/review-queue.routes.ts';
import auditRoutes from './modules/audit/audit.routes.ts';

/** Every feature's routes under /api/v1; one line per module. */
export async function registerApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(contactRoutes);
  await app.register(analyticsRoutes);
  await app.register(previewsRoutes);
  await app.register(qcRoutes);
  await app.register(qcBatchRoutes);
  await app.register(uploadsRoutes);
  await app.register(seriesRoutes);
  await app.register(usageRoutes);
  await app.register(metricsRoutes);
  await app.register(authRoutes);
  await app.register(profileRoutes);
  await app.register(referenceRoutes);
  await app.register(deidentificationRoutes);
  await app.register(blankingRoutes);
  await app.register(workspacesRoutes);
  await app.register(invitesRoutes);
  await app.register(preferencesRoutes);
  await app.register(commentsRoutes);
  await app.register(reviewsRoutes);
  await app.register(reviewQueueRoutes);
  await app.register(auditRoutes);
}
