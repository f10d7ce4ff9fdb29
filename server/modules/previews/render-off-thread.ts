import type { PreviewAxis } from '../../../contract/imaging.ts';
import type { ImageVolume } from '../../imaging/volume.ts';
import { runImagingTask } from '../../workers/imaging-pool.ts';
import { imagingMemory } from '../../workers/memory-budget.ts';

// Drawing reads the whole volume (its histogram sets the window) and copies a slice or two of it: budgeted as
// the volume's size, so a burst of previews of large images waits its turn rather than adding up.

/** The PNG preview of one slice of a decoded volume, drawn on the imaging pool (see renderSlicePng). */
export async function renderSliceOffThread(volume: ImageVolume, axis: PreviewAxis, slice: number): Promise<Buffer> {
  const png = await imagingMemory.use(volume.data.byteLength, () =>
    runImagingTask('renderSlice', { volume, axis, slice }),
  );
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}

/** The WebP card thumbnail of a decoded volume, drawn on the imaging pool (see renderThumbnail). */
export async function renderThumbnailOffThread(volume: ImageVolume): Promise<Buffer> {
  const webp = await imagingMemory.use(volume.data.byteLength, () => runImagingTask('thumbnail', { volume }));
  return Buffer.from(webp.buffer, webp.byteOffset, webp.byteLength);
}
