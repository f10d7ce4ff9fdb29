import type { SampleLayout } from './pixel-frames.ts';

/** A rectangle of an image, in pixels from its top left corner. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Sets every sample inside each rectangle (grown by `margin` pixels, clipped to the image) to zero, in every
 * frame of `pixels`, in place. Zero is black for MONOCHROME2, RGB and YBR luminance alike, and in both byte orders.
 */
export function blankRegions(pixels: Uint8Array, layout: SampleLayout, regions: PixelRect[], margin = 0): void {
  const { rows, columns, samples, bytesPerSample, planar } = layout;
  const count = rows * columns;
  const frameBytes = count * samples * bytesPerSample;
  const frames = Math.floor(pixels.length / frameBytes);
  for (let frame = 0; frame < frames; frame++) {
    const base = frame * frameBytes;
    for (const r of regions) {
      const x0 = Math.max(0, r.x - margin);
      const x1 = Math.min(columns, r.x + r.width + margin);
      if (x1 <= x0) continue;
      for (let y = Math.max(0, r.y - margin); y < Math.min(rows, r.y + r.height + margin); y++) {
        if (planar) {
          // One plane per sample: the row's run in each plane.
          for (let s = 0; s < samples; s++) {
            const start = base + (s * count + y * columns + x0) * bytesPerSample;
            pixels.fill(0, start, start + (x1 - x0) * bytesPerSample);
          }
          continue;
        }
        const start = base + (y * columns + x0) * samples * bytesPerSample;
        pixels.fill(0, start, start + (x1 - x0) * samples * bytesPerSample);
      }
    }
  }
}
