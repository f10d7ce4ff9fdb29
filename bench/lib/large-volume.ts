// The large image of the bombs benchmark: a volume that fits every decode budget (42 million values, under the
// 150 million one image may hold) yet is heavy to preview, thumbnail and check.
import { writeNifti } from '../../tests/fixtures/nifti-writer.ts';
import type { IngestAttack } from '../../tests/fixtures/ingest-attacks.ts';

/** Voxels across, down and deep. */
export const LARGE_DIMS: [number, number, number] = [512, 512, 160];

/** A 512 x 512 x 160 int16 NIfTI (84 MB): an ellipsoid of tissue with grain, in air, as a CT of a body would hold. */
export function largeVolume(): IngestAttack {
  const [nx, ny, nz] = LARGE_DIMS;
  const header = writeNifti({ dims: [1, 1, 1], values: [0], spacing: [0.7, 0.7, 1.25] }).subarray(0, 352);
  const view = new DataView(header.buffer, header.byteOffset, 352);
  LARGE_DIMS.forEach((d, i) => view.setInt16(42 + i * 2, d, true));
  const voxels = new Int16Array(nx * ny * nz);
  let seed = 12345;
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const r = ((x - 256) / 200) ** 2 + ((y - 256) / 160) ** 2 + ((z - 80) / 90) ** 2;
        voxels[(z * ny + y) * nx + x] = (r < 1 ? 40 : -1000) + ((seed >> 16) % 21) - 10;
      }
  const bytes = new Uint8Array(352 + voxels.byteLength);
  bytes.set(header);
  bytes.set(new Uint8Array(voxels.buffer), 352);
  return { name: 'large-volume.nii', bytes, route: '/uploads' };
}
