import { persistentAtom } from '@nanostores/persistent';

/**
 * The workspace the dashboard acts in, kept under `workspace_id` so a reload or another tab stays in it;
 * undefined means the personal workspace. The API client sends it with every call.
 */
export const $workspaceId = persistentAtom<string | undefined>('workspace_id', undefined);
