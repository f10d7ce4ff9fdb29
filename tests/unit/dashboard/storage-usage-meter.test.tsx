// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { quotaExceededMessage, storageSize } from '../../../contract/usage.ts';
import StorageUsageMeter from '../../../src/islands/dashboard/StorageUsageMeter.tsx';
import { $storageUsage, usedPercent } from '../../../src/stores/storage-usage.ts';

describe('the storage usage of a workspace', () => {
  afterEach(() => {
    cleanup();
    $storageUsage.set({ status: 'loading' });
  });

  it('writes sizes in binary units and says to the byte what is left over quota', () => {
    expect(storageSize(512)).toBe('512 bytes');
    expect(storageSize(1536)).toBe('1.5 KB');
    expect(storageSize(1024 ** 4)).toBe('1 TB');
    expect(quotaExceededMessage(12_500, 32_500)).toBe(
      "This upload does not fit in the workspace's storage quota: 12.21 KB (12500 bytes) left of 31.74 KB.",
    );
    expect(usedPercent({ used_bytes: 5, quota_bytes: 0, left_bytes: 0 })).toBe(100);
  });

  it('shows a labelled meter with the figures once loaded, and nothing before', () => {
    render(<StorageUsageMeter />);
    expect(screen.queryByRole('meter')).toBeNull();
    act(() => $storageUsage.set({ status: 'ready', usage: { used_bytes: 768, quota_bytes: 1024, left_bytes: 256 } }));
    const meter = screen.getByRole('meter', { name: 'Storage' });
    expect(meter.getAttribute('aria-valuenow')).toBe('75');
    expect(meter.getAttribute('aria-valuetext')).toBe('768 bytes of 1 KB used (256 bytes left)');
    expect(screen.getByText('768 bytes of 1 KB used (256 bytes left)')).toBeTruthy();
  });
});
