import { createChangeCounter } from '../../db/change-counter.ts';

/** Changes of each owner's uploads (inserts and deletes), noted by the uploads repository. */
export const uploadChanges = createChangeCounter();
