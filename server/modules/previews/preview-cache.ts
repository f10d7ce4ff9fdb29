import { onePerApp } from './one-per-app.ts';

/** Memory kept for rendered previews; a 512-px slice is 20–200 kB, so thousands fit. */
const CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Rendered preview PNGs in memory, least recently used dropped first past the byte budget. A preview
 * renders in milliseconds from a decoded volume, while writing it to the object store cost more than the
 * render (a file created, flushed and renamed, or a bucket round trip) and left files to find and remove
 * when the image was deleted. Each replica renders a slice once and keeps it while it is in use.
 */
export function createPreviewCache(maxBytes = CACHE_BYTES) {
  const entries = new Map<string, Buffer>();
  // Slices per upload and axis, learnt at the first render: a cached answer needs no decoded volume.
  const counts = new Map<string, number>();
  let held = 0;
  const keyOf = (storedFilename: string, axis: string, slice: number) => `${storedFilename}/${axis}/${slice}`;
  return {
    get(storedFilename: string, axis: string, slice: number): Buffer | undefined {
      const key = keyOf(storedFilename, axis, slice);
      const png = entries.get(key);
      if (png) {
        // Re-inserted so the map's order stays least-recently-used first.
        entries.delete(key);
        entries.set(key, png);
      }
      return png;
    },

    sliceCount(storedFilename: string, axis: string): number | undefined {
      return counts.get(`${storedFilename}/${axis}`);
    },

    set(storedFilename: string, axis: string, slice: number, png: Buffer, sliceCount: number): void {
      counts.set(`${storedFilename}/${axis}`, sliceCount);
      const key = keyOf(storedFilename, axis, slice);
      held -= entries.get(key)?.length ?? 0;
      entries.set(key, png);
      held += png.length;
      for (const [oldest, bytes] of entries) {
        if (held <= maxBytes || entries.size <= 1) break;
        entries.delete(oldest);
        held -= bytes.length;
      }
    },

    /** Drops every preview of an upload (deleted, so no picture of it may be served again). */
    forget(storedFilename: string): void {
      const prefix = `${storedFilename}/`;
      for (const key of counts.keys()) if (key.startsWith(prefix)) counts.delete(key);
      for (const [key, png] of entries) {
        if (!key.startsWith(prefix)) continue;
        entries.delete(key);
        held -= png.length;
      }
    },
  };
}

export type PreviewCache = ReturnType<typeof createPreviewCache>;

/** The one preview cache of an app (shared by the preview route and deletion, registered apart). */
export const previewCacheFor = onePerApp(() => createPreviewCache());
