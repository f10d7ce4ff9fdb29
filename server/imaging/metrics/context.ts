import type { FullResolutionCrop } from './full-resolution.ts';

/** What every modality's measurements start from: the sampled, finite grey values and the object mask. */
export interface MeasureContext {
  /** Grey values of the measurement grid (luminance for colour), all finite. */
  values: Float32Array;
  /** Interleaved RGB of the grid, for colour images. */
  rgb?: Float32Array;
  width: number;
  height: number;
  /** Smallest and largest value the stored type can hold (may be infinite for float images). */
  storedRange: [number, number];
  /** MONOCHROME1: high values are dark. */
  invert: boolean;
  /** Otsu foreground: the object (bright on dark, or for slides the dark tissue on white). */
  object: Uint8Array;
  /** The object grown by 2 voxels in-plane (its edge band included). */
  band: Uint8Array;
  /** The object grown by 3 voxels: what is outside is background. */
  grown: Uint8Array;
  /** Voxels of the original image per voxel of the grid, in-plane: widths in grid voxels times this are in image pixels. */
  stride: number;
  /** An NM image not known to be a tomographic reconstruction (DICOM's Image Type does not say TOMO): a planar frame. */
  planar: boolean;
  /** The full-resolution voxels around the image centre, for measures that the grid's sampling would coarsen. */
  fullResolution: () => FullResolutionCrop;
  /** The in-plane axis the phase was encoded along, where the file names it (MR). */
  phase?: 'x' | 'y';
  /**
   * A derived projection (DICOM's Image Type says PROJECTION IMAGE, or MIP): the brightest of a slab's voxels
   * at each pixel, whose background is the slab's dim tissue and the maxima of its noise, not one scan's air.
   */
  projection?: boolean;
  /** What measureGrid's pass found of `values`, so a measure needs no pass of its own for it. */
  extent?: ValuesExtent;
}

/**
 * The smallest and largest of some values, whether all are whole, and (when known) how many hold the largest and
 * how many each whole value from the smallest on.
 */
export interface ValuesExtent {
  min: number;
  max: number;
  whole: boolean;
  atMax?: number;
  counts?: Int32Array;
}

/** Named measurements of one image, every value finite. */
export type Measures = Record<string, number>;

/** The stored range to normalise against: the type's, or the image's own when the type is unbounded. */
export function rangeOf(c: MeasureContext): [number, number] {
  const [low, high] = c.storedRange;
  if (Number.isFinite(low) && Number.isFinite(high) && high > low) return [low, high];
  let min = Infinity,
    max = -Infinity;
  for (const v of c.values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max > min ? max : min + 1];
}
