/** A point or direction in ångströms. */
export type Vec3 = readonly [number, number, number];

/** a + b. */
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
/** a − b. */
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
/** k · a. */
export const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
/** The dot product. */
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
/** The cross product. */
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
/** The length of a. */
export const norm = (a: Vec3): number => Math.sqrt(dot(a, a));
/** a scaled to length 1. */
export const unit = (a: Vec3): Vec3 => scale(a, 1 / norm(a));
/** The distance between two points. */
export const distance = (a: Vec3, b: Vec3): number => norm(sub(a, b));

const toRad = (deg: number) => (deg * Math.PI) / 180;
const toDeg = (rad: number) => (rad * 180) / Math.PI;

/** The angle a–b–c in degrees. */
export function angle(a: Vec3, b: Vec3, c: Vec3): number {
  const u = unit(sub(a, b));
  const v = unit(sub(c, b));
  return toDeg(Math.acos(Math.max(-1, Math.min(1, dot(u, v)))));
}

/** The IUPAC dihedral a–b–c–d in degrees, in (−180, 180]. */
export function dihedral(a: Vec3, b: Vec3, c: Vec3, d: Vec3): number {
  const b1 = sub(b, a);
  const b2 = sub(c, b);
  const b3 = sub(d, c);
  // Blondel & Karplus (1996): positive when a–b turns clockwise onto c–d, seen along b→c.
  const y = norm(b2) * dot(b1, cross(b2, b3));
  const x = dot(cross(b1, b2), cross(b2, b3));
  return toDeg(Math.atan2(y, x));
}

/**
 * Places atom d from three placed atoms a, b, c and its internal coordinates (bond c–d, angle b–c–d,
 * dihedral a–b–c–d): the Natural Extension Reference Frame method, which keeps every length and angle
 * exactly as given.
 */
export function placeAtom(a: Vec3, b: Vec3, c: Vec3, bond: number, bondAngle: number, torsion: number): Vec3 {
  const bc = unit(sub(c, b));
  const n = unit(cross(sub(b, a), bc));
  const m = cross(n, bc);
  const theta = toRad(bondAngle);
  const phi = toRad(torsion);
  const d2: Vec3 = [
    -bond * Math.cos(theta),
    bond * Math.sin(theta) * Math.cos(phi),
    bond * Math.sin(theta) * Math.sin(phi),
  ];
  return add(c, add(add(scale(bc, d2[0]), scale(m, d2[1])), scale(n, d2[2])));
}

/** Rotates p by `degrees` about the axis through `origin` along `axis` (Rodrigues' formula). */
export function rotateAbout(p: Vec3, origin: Vec3, axis: Vec3, degrees: number): Vec3 {
  const k = unit(axis);
  const v = sub(p, origin);
  const t = toRad(degrees);
  const rotated = add(
    add(scale(v, Math.cos(t)), scale(cross(k, v), Math.sin(t))),
    scale(k, dot(k, v) * (1 - Math.cos(t))),
  );
  return add(origin, rotated);
}

/**
 * Expresses points in the frame whose origin is `origin`, whose z axis is `axis` and whose y axis is
 * `up` made perpendicular to it: a rigid motion, so every length and angle is kept.
 */
export function toFrame(points: Vec3[], origin: Vec3, axis: Vec3, up: Vec3): Vec3[] {
  const z = unit(axis);
  const y = unit(sub(up, scale(z, dot(up, z))));
  const x = cross(y, z);
  return points.map((p) => {
    const v = sub(p, origin);
    return [dot(v, x), dot(v, y), dot(v, z)] as Vec3;
  });
}

/** The mean of some points. */
export function centroid(points: Vec3[]): Vec3 {
  return scale(
    points.reduce<Vec3>((sum, p) => add(sum, p), [0, 0, 0]),
    1 / points.length,
  );
}
