import { z } from './zod.ts';

/** Answer of GET /workspaces/{workspaceId}/usage: what the workspace's images take in storage. */
export const workspaceUsage = z.object({
  used_bytes: z.number().int().nonnegative().describe("Bytes the workspace's stored images take"),
  quota_bytes: z
    .number()
    .int()
    .nonnegative()
    .describe("Most bytes they may take: the workspace's own quota (its plan's), else WORKSPACE_QUOTA_BYTES"),
  left_bytes: z
    .number()
    .int()
    .nonnegative()
    .describe('Bytes an upload may still add: quota_bytes − used_bytes, at least 0'),
});
export type WorkspaceUsage = z.infer<typeof workspaceUsage>;

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB', 'PB'];

/**
 * A size for people, in binary units with at most two decimals.
 * @example storageSize(1536) // '1.5 KB'
 */
export function storageSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : Number(value.toFixed(2))} ${UNITS[unit]}`;
}

/**
 * The 413 detail of an upload over the workspace's storage quota: how much is left, to the byte.
 * @example quotaExceededMessage(0, 1024) // 'This upload does not fit in the workspace's storage quota: 0 bytes left of 1 KB.'
 */
export function quotaExceededMessage(leftBytes: number, quotaBytes: number): string {
  const left = leftBytes < 1024 ? `${leftBytes} bytes` : `${storageSize(leftBytes)} (${leftBytes} bytes)`;
  return `This upload does not fit in the workspace's storage quota: ${left} left of ${storageSize(quotaBytes)}.`;
}
