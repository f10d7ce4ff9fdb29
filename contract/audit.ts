import { z } from './zod.ts';

/** The kinds of event a workspace's audit log can be filtered by, with the actions each one covers. */
export const AUDIT_KINDS = {
  sign_in: { label: 'Sign-ins', actions: ['auth.login', 'auth.login_failed'] },
  upload: { label: 'Uploads', actions: ['upload.create'] },
  download: { label: 'Downloads', actions: ['upload.download', 'share_link.download'] },
  deletion: { label: 'Deletions', actions: ['upload.delete'] },
  share: { label: 'Share links', actions: ['share_link.create', 'share_link.revoke'] },
  qc_run: { label: 'QC runs', actions: ['qc.run', 'qc.batch_start', 'qc.batch_cancel'] },
  rating: { label: 'Ratings', actions: ['review.rate', 'review.decide', 'rating.*'] },
  membership: { label: 'Members, roles and settings', actions: ['workspace.*', 'review.settings'] },
} as const;
/** A key of AUDIT_KINDS. */
export type AuditKind = keyof typeof AUDIT_KINDS;
/** The kinds in the order the filter lists them. */
export const auditKinds = Object.keys(AUDIT_KINDS) as AuditKind[];

/** How each recorded action reads in the log; an action not named here shows as recorded. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'auth.login': 'Signed in',
  'auth.login_failed': 'Sign-in failed',
  'upload.create': 'Uploaded an image',
  'upload.download': 'Downloaded an image',
  'upload.delete': 'Deleted an image',
  'upload.blank_regions': 'Blanked regions of an image',
  'upload.confirm_clean': 'Confirmed no burned-in text remains in an image',
  'share_link.create': 'Made a share link',
  'share_link.revoke': 'Revoked a share link',
  'share_link.download': 'Image downloaded through a share link',
  'qc.run': 'Ran a quality check',
  'qc.batch_start': 'Started a batch check',
  'qc.batch_cancel': 'Cancelled a batch check',
  'workspace.create': 'Created the workspace',
  'workspace.member_update': 'Changed a role or permission',
  'workspace.member_remove': 'Removed a member',
  'workspace.leave': 'Left the workspace',
  'workspace.invite': 'Invited someone',
  'workspace.invite_revoke': 'Withdrew an invitation',
  'workspace.join': 'Joined from an invitation',
  'review.rate': 'Rated an image',
  'review.decide': 'Gave the tier-2 decision',
  'review.settings': 'Changed the review settings',
};

/** Whether an action belongs to a kind (a pattern ending in `.*` covers every action with that prefix). */
export function actionIsOfKind(action: string, kind: AuditKind): boolean {
  return AUDIT_KINDS[kind].actions.some((pattern) =>
    pattern.endsWith('.*') ? action.startsWith(pattern.slice(0, -1)) : action === pattern,
  );
}

/** The kind an action belongs to, or null for one no filter names. */
export function kindOfAction(action: string): AuditKind | null {
  return auditKinds.find((kind) => actionIsOfKind(action, kind)) ?? null;
}

/** Most events one page of the audit log holds. */
export const MAX_AUDIT_PAGE = 200;
/** Most events one CSV export holds (the newest that match). */
export const MAX_AUDIT_EXPORT = 100_000;

const moment = z.iso.datetime({ offset: true });

/** Filters of the audit log and of its CSV export; all optional, combined with "and". */
export const auditFilters = z.object({
  actor: z.uuid().optional().describe('Only events of this user (user id)'),
  kind: z
    .enum(auditKinds as [AuditKind, ...AuditKind[]])
    .optional()
    .describe('Only events of this kind'),
  from: moment.optional().describe('Only events at or after this ISO 8601 moment'),
  to: moment.optional().describe('Only events before this ISO 8601 moment'),
});
export type AuditFilters = z.infer<typeof auditFilters>;

/** Query of GET /workspaces/{id}/audit: the filters and one page. */
export const auditQuery = auditFilters.extend({
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(50).describe('Events per page'),
  cursor: z.uuid().optional().describe('The next_cursor of the previous page'),
});
export type AuditQuery = z.infer<typeof auditQuery>;

/** One event of a workspace's audit log. */
export const auditItem = z.object({
  id: z.string().describe('Event id (UUID)'),
  at: z.string().describe('When it happened (ISO 8601, UTC)'),
  action: z.string().describe('What happened, such as upload.delete'),
  label: z.string().describe('The action in words'),
  kind: z
    .enum(auditKinds as [AuditKind, ...AuditKind[]])
    .nullable()
    .describe('The filter kind it belongs to'),
  actor: z
    .object({ id: z.string(), name: z.string(), email: z.string() })
    .nullable()
    .describe('Who did it; null for someone without an account (a share link) or a deleted account'),
  ip: z.string().nullable().describe('The address the request came from'),
  detail: z.record(z.string(), z.unknown()).describe('What it was done to (image names, roles…); never a secret'),
});
export type AuditItem = z.infer<typeof auditItem>;

/** Answer of GET /workspaces/{id}/audit: newest first. */
export const auditPage = z.object({
  items: z.array(auditItem),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last one'),
});
export type AuditPage = z.infer<typeof auditPage>;

/** Answer of GET /workspaces/{id}/audit/actors: everyone the log names as an actor, former members included, by name. */
export const auditActors = z.array(
  z.object({
    id: z.string().describe('User id (UUID), the `actor` filter'),
    name: z.string(),
    email: z.string(),
  }),
);
export type AuditActor = z.infer<typeof auditActors>[number];
