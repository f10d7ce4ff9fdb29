import type { PreviewAxis } from '../../contract/imaging.ts';

/** Patient directions of the voxel axes x, y, z: unit vectors in DICOM's LPS space (+x left, +y posterior, +z superior). */
export type VoxelDirections = [number[], number[], number[]];

/**
 * Which voxel axis runs along each patient axis (left, posterior, superior) and whether it runs backwards:
 * the closest canonical order of a volume, as nibabel's `as_closest_canonical` finds it. An oblique
 * volume gets the patient axis each voxel axis is closest to.
 */
export interface CanonicalAxes {
  /** For patient axis p (0 = towards left, 1 = towards posterior, 2 = towards superior): the voxel axis along it. */
  axis: [number, number, number];
  /** True when that voxel axis runs the other way (towards right, anterior or inferior). */
  flip: [boolean, boolean, boolean];
}

/**
 * The closest canonical axes of `directions`, choosing the largest components first so that two voxel
 * axes never claim one patient axis; undefined without usable directions.
 */
export function canonicalAxes(directions: VoxelDirections | undefined): CanonicalAxes | undefined {
  if (!directions || directions.some((d) => d.length !== 3 || d.some((v) => !Number.isFinite(v)))) return undefined;
  const pairs = directions
    .flatMap((d, voxel) => d.map((v, patient) => ({ voxel, patient, weight: Math.abs(v) })))
    .sort((a, b) => b.weight - a.weight);
  const axis = [-1, -1, -1] as [number, number, number];
  const used = new Set<number>();
  for (const { voxel, patient, weight } of pairs) {
    if (weight === 0 || axis[patient] !== -1 || used.has(voxel)) continue;
    axis[patient] = voxel;
    used.add(voxel);
  }
  if (axis.includes(-1)) return undefined;
  const flip = axis.map((voxel, patient) => directions[voxel]![patient]! < 0) as [boolean, boolean, boolean];
  return { axis, flip };
}

/** The patient direction at each edge of a displayed slice: left, right, top, bottom. */
export interface EdgeMarkers {
  left: string;
  right: string;
  top: string;
  bottom: string;
}

/**
 * The markers of a slice shown the radiological way: the patient's right on the viewer's left, anterior
 * (axial) or superior (coronal, sagittal) at the top, and anterior on the left of a sagittal slice.
 */
export const radiologicalMarkers: Record<PreviewAxis, EdgeMarkers> = {
  axial: { left: 'R', right: 'L', top: 'A', bottom: 'P' },
  coronal: { left: 'R', right: 'L', top: 'S', bottom: 'I' },
  sagittal: { left: 'A', right: 'P', top: 'S', bottom: 'I' },
};

/** DICOM Image Orientation (Patient) and the stacking direction as voxel directions (x along a row, y down the columns). */
export function dicomDirections(cosines: number[], stack?: number[]): VoxelDirections | undefined {
  if (cosines.length !== 6 || cosines.some((c) => !Number.isFinite(c))) return undefined;
  const row = cosines.slice(0, 3);
  const column = cosines.slice(3, 6);
  const normal = [
    row[1]! * column[2]! - row[2]! * column[1]!,
    row[2]! * column[0]! - row[0]! * column[2]!,
    row[0]! * column[1]! - row[1]! * column[0]!,
  ];
  // Frames and slices run along the normal unless their positions say they run the other way.
  const along = stack && normal.reduce((sum, n, i) => sum + n * stack[i]!, 0) < 0 ? normal.map((n) => -n) : normal;
  return [row, column, along];
}

/** NIfTI or NRRD axis vectors in RAS (an affine's columns) as voxel directions in LPS. */
export function rasDirections(columns: number[][]): VoxelDirections | undefined {
  if (columns.length !== 3) return undefined;
  return columns.map((c) => {
    const length = Math.hypot(...c) || 1;
    return [-c[0]! / length, -c[1]! / length, c[2]! / length];
  }) as VoxelDirections;
}

// The six marker letters as strokes in a 10 x 14 box: drawn as paths, they need no font on the server.
const glyphs: Record<string, string> = {
  R: 'M1,14V0H7Q10,0 10,3.5Q10,7 7,7H1M6,7L10,14',
  L: 'M1,0V14H10',
  A: 'M0,14L5,0L10,14M2,8.5H8',
  P: 'M1,14V0H7Q10,0 10,3.5Q10,7 7,7H1',
  S: 'M10,2Q8.5,0 5,0Q0.5,0 0.5,3.5Q0.5,7 5,7Q9.5,7 9.5,10.5Q9.5,14 5,14Q1.5,14 0,12',
  I: 'M5,0V14M2,0H8M2,14H8',
};

/**
 * An SVG, `width` x `height`, with the edge markers drawn white on a dark halo: the letter for each
 * side near the middle of that side. Composited onto a preview so the picture itself says which way the
 * patient lies.
 */
export function markerOverlay(width: number, height: number, markers: EdgeMarkers): string {
  const scale = Math.max(1, Math.min(1.6, Math.min(width, height) / 256));
  const [w, h, margin] = [10 * scale, 14 * scale, 4 * scale];
  const at: Record<keyof EdgeMarkers, [number, number]> = {
    left: [margin, (height - h) / 2],
    right: [width - margin - w, (height - h) / 2],
    top: [(width - w) / 2, margin],
    bottom: [(width - w) / 2, height - margin - h],
  };
  const letters = (Object.keys(at) as (keyof EdgeMarkers)[]).map((edge) => {
    const [x, y] = at[edge];
    const path = glyphs[markers[edge]] ?? '';
    const move = `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale.toFixed(3)})`;
    return (
      `<path transform="${move}" d="${path}" stroke="#000" stroke-width="3.4" />` +
      `<path transform="${move}" d="${path}" stroke="#fff" stroke-width="1.8" />`
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" fill="none" ` +
    `stroke-linecap="round" stroke-linejoin="round">${letters.join('')}</svg>`
  );
}
