import type { VolumeStatus } from '../../../stores/volume-viewer.ts';

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);

/** Download progress, then "Preparing", over the canvas; the error if opening fails. */
export default function VolumeProgress({ status }: { status: VolumeStatus }) {
  if (status.phase === 'ready') return null;
  if (status.phase === 'error') {
    return (
      <div className="vv-overlay vv-error" role="alert">
        {status.message}
      </div>
    );
  }
  if (status.phase === 'preparing') {
    return (
      <div className="vv-overlay" role="status">
        Preparing volume…
      </div>
    );
  }
  const percent = status.total ? Math.round((status.received / status.total) * 100) : undefined;
  return (
    <div className="vv-overlay" role="status">
      <label>
        Loading volume{percent === undefined ? '' : ` ${percent} %`} ({megabytes(status.received)} MB)
        <progress max={status.total ?? undefined} value={status.total ? status.received : undefined} />
      </label>
    </div>
  );
}
