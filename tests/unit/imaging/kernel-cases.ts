// What the kernel equivalence tests measure old and new code on: grey grid values and the object mask, as
// measureQuality hands them to the kernels, from Debian's example images and the corpus generators.
import { existsSync, readFileSync } from 'node:fs';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { foregroundMask, luminance } from '../../../server/imaging/metrics/mask.ts';
import { measurementGrid } from '../../../server/imaging/metrics/measurement-grid.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';

export const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
export const NIBABEL = '/usr/lib/python3/dist-packages/nibabel/tests/data';

/** Grey grid values and the masks measureQuality derives, as the kernels receive them. */
export interface KernelCase {
  name: string;
  values: Float32Array;
  width: number;
  height: number;
  object: Uint8Array;
}

/** The case of one decoded or generated image. */
export function caseOf(name: string, volume: ImageVolume): KernelCase {
  const grid = measurementGrid(volume);
  const values = luminance(grid.data, grid.channels);
  const { mask } = foregroundMask(values, grid.channels === 3);
  return { name, values, width: grid.width, height: grid.height, object: mask };
}

/** The cases of those Debian example files that are installed. */
export async function debianCases(paths: string[]): Promise<KernelCase[]> {
  const cases: KernelCase[] = [];
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const hint = path.replace(/^.*?(\.[^/]*)$/, '$1');
    cases.push(caseOf(path, await decodeImage(new Uint8Array(readFileSync(path)), hint)));
  }
  return cases;
}

/** Whether two arrays hold the same numbers to the bit (NaN equal to NaN, 0 unequal to -0). */
export const same = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => Object.is(v, b[i]));
