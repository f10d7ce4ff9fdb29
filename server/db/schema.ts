/** Every table of the product, gathered for drizzle and its migrations. */
export * from '../modules/auth/users.table.ts';
export * from '../modules/auth/sessions.table.ts';
export * from '../modules/auth/auth-tokens.table.ts';
export * from '../modules/audit/audit.table.ts';
export * from '../modules/contact/contact.table.ts';
export * from '../modules/analytics/analytics.table.ts';
export * from '../modules/workspaces/workspaces.table.ts';
export * from '../modules/workspaces/invites.table.ts';
export * from '../modules/uploads/uploads.table.ts';
export * from '../modules/qc/qc.table.ts';
export * from '../modules/qc/qc-batch.table.ts';
export * from '../modules/deidentification/deidentification.table.ts';
export * from '../modules/comments/comments.table.ts';
export * from '../modules/reviews/reviews.table.ts';
export * from '../modules/deidentification/uid-salts.table.ts';
export * from '../modules/mfa/mfa.table.ts';
export * from '../modules/previews/thumbnails.table.ts';
