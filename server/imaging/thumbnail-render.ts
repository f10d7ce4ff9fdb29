import sharp from 'sharp';
import { acquisitionAxis, displayRange, renderSlicePng, sliceCount } from './preview-render.ts';
import type { ImageVolume } from './volume.ts';

/** Longest side of a thumbnail in pixels: twice the card's picture, for sharp screens. */
export const THUMBNAIL_SIZE = 192;

/**
 * A small WebP picture of an image for its library card: the middle slice in the plane it was acquired
 * in (for a series, its middle instance), windowed like the preview, without markers, at most 192 px.
 */
export async function renderThumbnail(volume: ImageVolume): Promise<Buffer> {
  const axis = acquisitionAxis(volume);
  const middle = Math.floor(sliceCount(volume, axis) / 2);
  const png = await renderSlicePng(volume, axis, middle, displayRange(volume), { markers: false });
  return sharp(png)
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 })
    .toBuffer();
}
