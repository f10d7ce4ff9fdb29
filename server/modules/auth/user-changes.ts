import { createChangeCounter } from '../../db/change-counter.ts';

/** Changes of each user's row, noted by the users repository after every update. */
export const userChanges = createChangeCounter();
