import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createAnalyticsRepository } from '../modules/analytics/analytics.repository.ts';
import { createAuditRepository } from '../modules/audit/audit.repository.ts';
import { createUsersRepository } from '../modules/auth/users.repository.ts';
import { createCommentsRepository } from '../modules/comments/comments.repository.ts';
import { createContactRepository } from '../modules/contact/contact.repository.ts';
import { createDeidentificationRepository } from '../modules/deidentification/deidentification.repository.ts';
import { createLibraryRepository } from '../modules/library/library.repository.ts';
import { createMetricsRepository } from '../modules/metrics/metrics.repository.ts';
import { createMfaRepository } from '../modules/mfa/mfa.repository.ts';
import { createQcBatchRepository } from '../modules/qc/qc-batch.repository.ts';
import { createQcRepository } from '../modules/qc/qc.repository.ts';
import { createReviewSettingsRepository } from '../modules/reviews/review-settings.repository.ts';
import { createReviewsRepository } from '../modules/reviews/reviews.repository.ts';
import { createUploadsRepository } from '../modules/uploads/uploads.repository.ts';
import { createInvitesRepository } from '../modules/workspaces/invites.repository.ts';
import type { Database } from '../db/connect.ts';

/** Every module's repository over one database, made once. */
function createRepositories(db: Database, config: FastifyInstance['config']) {
  return {
    analytics: createAnalyticsRepository({ db }),
    audit: createAuditRepository({ db }),
    comments: createCommentsRepository({ db }),
    contact: createContactRepository({ db }),
    deidentification: createDeidentificationRepository({ db }),
    invites: createInvitesRepository({ db }),
    library: createLibraryRepository({ db }),
    metrics: createMetricsRepository({ db }),
    mfa: createMfaRepository({ db, secretKey: config.mfaEncryptionKey }),
    qc: createQcRepository({ db }),
    qcBatches: createQcBatchRepository({ db }),
    reviewSettings: createReviewSettingsRepository({ db }),
    reviews: createReviewsRepository({ db }),
    uploads: createUploadsRepository({ db }),
    users: createUsersRepository({ db }),
  };
}

/** The repositories every route reads and writes through, as `app.repos`. */
export type Repositories = ReturnType<typeof createRepositories>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Each module's repository over the app's database (`app.repos.comments`…), shared by its routes and by
     * other modules, which then need not import the module. A transaction still makes its own over `tx`.
     */
    repos: Repositories;
  }
}

/** Decorates the app with `repos`, made once over `app.db` before any route is registered. */
export default fp(async function repositories(app: FastifyInstance) {
  app.decorate('repos', createRepositories(app.db, app.config));
});
