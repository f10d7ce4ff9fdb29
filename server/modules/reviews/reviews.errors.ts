import { badRequest, conflict, forbidden } from '../../http-errors.ts';

/** 403 for a decision by someone who is not a tier-2 reviewer. */
export const notTier2 = () => forbidden('Only a tier-2 reviewer of this workspace decides');
/** 409 for a decision on an image that no questionable rating or disagreement sent to tier 2. */
export const notEscalated = () => conflict('This image has not been sent to tier 2');
/** 409 for a change to an image whose review a tier-2 reviewer has closed. */
export const alreadyDecided = () => conflict('This image already has a final decision');
/** 400 for a tag outside the workspace's list. */
export const unknownTag = (tag: string) => badRequest(`Unknown artefact tag: ${tag}`);
