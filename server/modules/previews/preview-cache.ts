import { LRUCache } from 'lru-cache';

/** Memory kept for rendered previews; a 512-px slice is 20–200 kB, so thousands fit. */
const CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Rendered preview PNGs in memory, least recently used dropped first past the byte budget. A preview
 * renders in milliseconds from a decoded volume, while writing it to the object store cost more than the
 * render and left files to find and remove when the image was deleted. Each replica renders a slice once
 * and keeps it while it is in use.
 */
export function createPreviewCache(maxBytes = CACHE_BYTES) {
  const entries = new LRUCache<string, Buffer>({ maxSize: maxBytes, sizeCalculation: (png) => png.length || 1 });
  // Slices per upload and axis, learnt at the first render: a cached answer needs no decoded volume.
  const counts = new LRUCache<string, number>({ max: 100_000 });
  const keyOf = (storedFilename: string, axis: string, slice: number) => `${storedFilename}/${axis}/${slice}`;
  return {
    get: (storedFilename: string, axis: string, slice: number): Buffer | undefined =>
      entries.get(keyOf(storedFilename, axis, slice)),

    sliceCount: (storedFilename: string, axis: string): number | undefined => counts.get(`${storedFilename}/${axis}`),

    /** Volumes (time points) of an upload, learnt at its first render. */
    timePoints: (storedFilename: string): number | undefined => counts.get(`${storedFilename}/#volumes`),

    setTimePoints(storedFilename: string, timePoints: number): void {
      counts.set(`${storedFilename}/#volumes`, timePoints);
    },

    set(storedFilename: string, axis: string, slice: number, png: Buffer, sliceCount: number): void {
      counts.set(`${storedFilename}/${axis}`, sliceCount);
      if (png.length <= maxBytes) entries.set(keyOf(storedFilename, axis, slice), png);
    },

    /** Drops every preview of an upload (deleted, so no picture of it may be served again). */
    forget(storedFilename: string): void {
      const prefix = `${storedFilename}/`;
      for (const key of [...counts.keys()]) if (key.startsWith(prefix)) counts.delete(key);
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}

export type PreviewCache = ReturnType<typeof createPreviewCache>;
