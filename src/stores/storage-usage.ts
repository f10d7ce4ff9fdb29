import { atom, onMount } from 'nanostores';
import type { WorkspaceUsage } from '../../contract/usage.ts';
import { backgroundApi, errorMessage } from '../lib/api.ts';
import { $library } from './library.ts';
import { $currentWorkspace } from './workspaces.ts';

/** The current workspace's storage usage as last loaded. */
export type StorageUsageState =
  { status: 'loading' } | { status: 'ready'; usage: WorkspaceUsage } | { status: 'failed'; message: string };

/** What the current workspace's images take in storage, and its quota. */
export const $storageUsage = atom<StorageUsageState>({ status: 'loading' });

/**
 * The share of the quota in use, in whole percent from 0 to 100 (a quota of 0 is full).
 * @example usedPercent({ used_bytes: 512, quota_bytes: 1024, left_bytes: 512 }) // 50
 */
export function usedPercent(usage: WorkspaceUsage): number {
  if (usage.quota_bytes <= 0) return 100;
  return Math.min(100, Math.round((usage.used_bytes / usage.quota_bytes) * 100));
}

/** Loads the usage of the workspace the dashboard acts in. */
export async function loadStorageUsage(): Promise<void> {
  const workspace = $currentWorkspace.get();
  if (!workspace) return;
  try {
    const usage = await backgroundApi.get(`/workspaces/${workspace.id}/usage`).json<WorkspaceUsage>();
    $storageUsage.set({ status: 'ready', usage });
  } catch (error) {
    $storageUsage.set({ status: 'failed', message: errorMessage(error, 'Failed to load storage usage') });
  }
}

// While shown, the usage follows the workspace and the library: an upload or a deletion changes it.
onMount($storageUsage, () => {
  let lastCount = -1;
  const stopWorkspace = $currentWorkspace.subscribe(() => void loadStorageUsage());
  const stopLibrary = $library.listen((library) => {
    if (!library.loaded || library.items.length === lastCount) return;
    lastCount = library.items.length;
    void loadStorageUsage();
  });
  return () => {
    stopWorkspace();
    stopLibrary();
  };
});
