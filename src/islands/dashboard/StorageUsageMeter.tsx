import { useStore } from '@nanostores/react';
import { storageSize } from '../../../contract/usage.ts';
import { $storageUsage, usedPercent } from '../../stores/storage-usage.ts';

/** The workspace's storage in use against its quota: a labelled meter with the figures as text beside it. */
export default function StorageUsageMeter() {
  const state = useStore($storageUsage);
  if (state.status !== 'ready') return null;
  const { used_bytes: used, quota_bytes: quota, left_bytes: left } = state.usage;
  const percent = usedPercent(state.usage);
  const text = `${storageSize(used)} of ${storageSize(quota)} used (${storageSize(left)} left)`;
  return (
    <div className="dash-usage">
      <span id="storage-usage-label">Storage</span>
      <div
        className="dash-usage-bar"
        role="meter"
        aria-labelledby="storage-usage-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
      >
        <div className="dash-usage-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="dash-usage-text">{text}</span>
    </div>
  );
}
