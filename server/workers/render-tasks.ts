// Drawing previews and thumbnails as tasks of the imaging pool (imaging-tasks.ts re-exports them): a slice of a
// large volume is windowed over the whole volume's histogram and encoded, hundreds of milliseconds of work that
// the event loop must not do. The volume arrives on shared memory (see the decode task): it is not copied.
import type { PreviewAxis } from '../../contract/imaging.ts';
import { renderSlicePng } from '../imaging/preview-render.ts';
import { renderThumbnail } from '../imaging/thumbnail-render.ts';
import type { ImageVolume } from '../imaging/volume.ts';
import { transferred } from './transferred.ts';

/** A decoded volume and the slice of it to draw. */
export interface RenderSliceTask {
  volume: ImageVolume;
  axis: PreviewAxis;
  slice: number;
}

/** The PNG preview of one slice (see renderSlicePng), moved to the main thread. */
export async function renderSlice({ volume, axis, slice }: RenderSliceTask): Promise<Uint8Array> {
  // Copied into a buffer of its own: sharp's and zlib's may be external memory, which cannot be moved.
  const png = new Uint8Array(await renderSlicePng(volume, axis, slice));
  return transferred(png, [png.buffer as ArrayBuffer]);
}

/** The WebP card thumbnail of a volume (see renderThumbnail), moved to the main thread. */
export async function thumbnail({ volume }: { volume: ImageVolume }): Promise<Uint8Array> {
  const webp = new Uint8Array(await renderThumbnail(volume));
  return transferred(webp, [webp.buffer as ArrayBuffer]);
}
