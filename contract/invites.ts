import { z } from './zod.ts';
import { workspaceItem, workspaceRole } from './workspaces.ts';

/** Body of POST /workspaces/{id}/invites. */
export const inviteRequest = z.object({
  email: z.string().trim().max(254).describe('Address to invite; the invitation works only for it'),
  role: workspaceRole.describe('Role the invitee gets on joining'),
});

/** One pending invitation, as its workspace's admins see it. */
export const inviteItem = z.object({
  id: z.string().describe('Invitation id (UUID)'),
  email: z.string().describe('Invited address'),
  role: workspaceRole,
  expires_at: z.string().describe('ISO 8601 moment the link stops working'),
});
export type InviteItem = z.infer<typeof inviteItem>;

/** Answer of GET /workspaces/{id}/invites: unused, unexpired invitations, oldest first. */
export const inviteList = z.array(inviteItem);

/** Path of /workspaces/{workspaceId}/invites/{inviteId}. */
export const inviteParams = z.object({
  workspaceId: z.string().max(100).describe('Workspace id (UUID)'),
  inviteId: z.string().max(100).describe('Invitation id (UUID)'),
});

/** Path of /invites/{token}. */
export const inviteTokenParams = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{20,128}$/, 'This invitation is invalid or has expired')
    .describe('The secret of an invitation link'),
});

/** Answer of GET /invites/{token}: what the link invites its holder to. */
export const invitePreview = z.object({
  workspace_name: z.string().describe('Name of the workspace'),
  role: workspaceRole,
  email: z.string().describe('The address the invitation is for'),
  invited_by: z.string().nullable().describe('Name of the admin who invited'),
  expires_at: z.string().describe('ISO 8601 moment the link stops working'),
});
export type InvitePreview = z.infer<typeof invitePreview>;

/** Answer of POST /invites/{token}/accept: the workspace joined. */
export const inviteAccepted = workspaceItem;

/** The detail of every 404 about an invitation link: unknown, used, withdrawn or expired look the same. */
export const INVITE_INVALID = 'This invitation is invalid or has expired';
/** The detail of the 403 for a signed-in user whose address is not the invited one. */
export const INVITE_OTHER_ADDRESS = 'This invitation was sent to another e-mail address';
