import { WORKSPACE_NOT_FOUND } from '../../../contract/workspaces.ts';
import { conflict, forbidden, notFound } from '../../http-errors.ts';

/** 404 for a workspace that does not exist or that the caller is not a member of: the two look the same. */
export const workspaceNotFound = () => notFound(WORKSPACE_NOT_FOUND);
/** 404 for a user who is not a member of the workspace. */
export const memberNotFound = () => notFound('Member not found');
/** 403 for a member whose role does not allow the action. */
export const roleForbids = () => forbidden('Your role in this workspace does not allow this');
/** 409 when the change would leave a workspace without an admin. */
export const lastAdmin = () => conflict('A workspace needs at least one admin');
/** 409 for a change a personal workspace does not allow. */
export const personalWorkspace = () => conflict('A personal workspace has only its owner');
