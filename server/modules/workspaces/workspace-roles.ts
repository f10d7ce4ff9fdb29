/** The roles a member can hold in a workspace, from most to least powerful. */
export const WORKSPACE_ROLES = ['admin', 'member', 'reviewer', 'viewer'] as const;
/** One of WORKSPACE_ROLES. */
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** What a request may want to do inside a workspace; every route names one. */
export type WorkspaceAction =
  | 'read' // list, download, preview, metadata, QC results, metrics, activity, members
  | 'upload' // upload, delete, share links, run a quality check
  | 'comment' // write comments
  | 'rate' // rate images
  | 'manage'; // members, roles, settings, audit

const allowed: Record<WorkspaceRole, ReadonlySet<WorkspaceAction>> = {
  admin: new Set(['read', 'upload', 'comment', 'rate', 'manage']),
  member: new Set(['read', 'upload', 'comment', 'rate']),
  reviewer: new Set(['read', 'comment', 'rate']),
  viewer: new Set(['read']),
};

/**
 * Whether a role allows an action.
 * @example roleAllows('reviewer', 'upload') // false
 */
export function roleAllows(role: WorkspaceRole, action: WorkspaceAction): boolean {
  return allowed[role].has(action);
}

/** True for a string that names a role. */
export function isWorkspaceRole(value: string): value is WorkspaceRole {
  return (WORKSPACE_ROLES as readonly string[]).includes(value);
}
