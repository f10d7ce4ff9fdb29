import { z } from './zod.ts';

/** Header naming the workspace a request acts in; without it, the caller's personal workspace. */
export const WORKSPACE_HEADER = 'x-workspace-id';

/** The detail of the 404 for a workspace that does not exist or that the caller does not belong to. */
export const WORKSPACE_NOT_FOUND = 'Workspace not found';

/** The roles of a workspace member, most powerful first. */
export const workspaceRole = z
  .enum(['admin', 'member', 'reviewer', 'viewer'])
  .describe(
    'admin: members, roles, settings, audit; member: upload, comment, rate; reviewer: read, comment, rate; viewer: read only',
  );
export type WorkspaceRoleName = z.infer<typeof workspaceRole>;

/** Permissions an admin grants beside the role. */
export const workspacePermission = z.enum(['dataset.write']).describe('dataset.write: create and change datasets');

// Line breaks in a name would let it fake lines in the e-mails and lists that show it.
const workspaceName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name is too long (100 characters at most)')
  .regex(/^[^\r\n]*$/, 'Name must be one line')
  .describe('Name shown in the workspace switcher');

/** One workspace the caller belongs to. */
export const workspaceItem = z.object({
  id: z.string().describe('Workspace id (UUID), sent back in the x-workspace-id header'),
  name: z.string().describe('Display name'),
  personal: z.boolean().describe("True for the caller's own personal workspace"),
  role: workspaceRole.describe("The caller's role here"),
  permissions: z.array(workspacePermission).describe("The caller's extra permissions here"),
  member_count: z.number().int().positive().describe('How many people belong to it'),
});
export type WorkspaceItem = z.infer<typeof workspaceItem>;

/** Answer of GET /workspaces: the caller's personal workspace first, then teams by name. */
export const workspaceList = z.array(workspaceItem);

/** Body of POST /workspaces (a team workspace) and PATCH /workspaces/{id}. */
export const workspaceBody = z.object({ name: workspaceName });

/** Path of every /workspaces/{workspaceId} route. */
export const workspaceParams = z.object({
  // Any text: an id that is not a UUID is simply not found, like a workspace one is not a member of.
  workspaceId: z.string().max(100).describe('Workspace id (UUID)'),
});

/** Path of /workspaces/{workspaceId}/members/{userId}. */
export const memberParams = workspaceParams.extend({
  userId: z.string().max(100).describe('User id (UUID) of the member'),
});

/** One member of a workspace. */
export const memberItem = z.object({
  user_id: z.string().describe('User id (UUID)'),
  name: z.string().describe('Display name'),
  email: z.string().describe('E-mail address'),
  role: workspaceRole,
  permissions: z.array(workspacePermission),
  joined_at: z.number().int().describe('When they joined, in epoch seconds'),
});
export type MemberItem = z.infer<typeof memberItem>;

/** Answer of GET /workspaces/{id}/members: admins first, then by name. */
export const memberList = z.array(memberItem);

/** Body of PATCH /workspaces/{id}/members/{userId}: fields left out keep their value. */
export const memberUpdate = z
  .object({
    role: workspaceRole.optional(),
    permissions: z.array(workspacePermission).max(10).optional().describe('The full list of extra permissions'),
  })
  .refine((body) => body.role !== undefined || body.permissions !== undefined, 'Send a role or permissions');
