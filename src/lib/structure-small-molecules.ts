import { add, placeAtom, scale, sub, unit, type Vec3 } from './structure-geometry.ts';
import type { SdfBond, SdfMolecule } from './structure-sdf.ts';

const deg = Math.PI / 180;
const onCircle = (centre: Vec3, radius: number, degrees: number): Vec3 =>
  add(centre, [radius * Math.cos(degrees * deg), radius * Math.sin(degrees * deg), 0]);

/** Water at its gas-phase equilibrium geometry (O–H 0.9572 Å, H–O–H 104.52°). */
export function water(): SdfMolecule {
  const half = (104.52 / 2) * deg;
  return {
    name: 'water',
    comment: 'Gas-phase equilibrium geometry: O-H 0.9572 A, H-O-H 104.52 deg',
    atoms: [
      { element: 'O', position: [0, 0, 0] },
      { element: 'H', position: [0.9572 * Math.sin(half), 0.9572 * Math.cos(half), 0] },
      { element: 'H', position: [-0.9572 * Math.sin(half), 0.9572 * Math.cos(half), 0] },
    ],
    bonds: [
      { from: 0, to: 1, order: 1 },
      { from: 0, to: 2, order: 1 },
    ],
  };
}

/** Benzene as a regular hexagon (D6h; C–C 1.397 Å, C–H 1.084 Å), Kekulé bonds. */
export function benzene(): SdfMolecule {
  const atoms: SdfMolecule['atoms'] = [];
  for (let i = 0; i < 6; i++) atoms.push({ element: 'C', position: onCircle([0, 0, 0], 1.397, i * 60) });
  for (let i = 0; i < 6; i++) atoms.push({ element: 'H', position: onCircle([0, 0, 0], 1.397 + 1.084, i * 60) });
  const bonds: SdfBond[] = [];
  for (let i = 0; i < 6; i++) {
    bonds.push({ from: i, to: (i + 1) % 6, order: i % 2 === 0 ? 2 : 1 });
    bonds.push({ from: i, to: i + 6, order: 1 });
  }
  return { name: 'benzene', comment: 'Ideal D6h geometry: C-C 1.397 A, C-H 1.084 A', atoms, bonds };
}

/**
 * Caffeine (1,3,7-trimethylxanthine) with an idealised planar purine: regular fused hexagon and
 * pentagon of 1.38 Å sides (the crystal's ring bonds span 1.33–1.42 Å), C=O 1.23 Å, N–CH3 1.47 Å,
 * C–H 1.09 Å and tetrahedral methyls.
 */
export function caffeine(): SdfMolecule {
  const s = 1.38;
  const hexCentre: Vec3 = [0, 0, 0];
  const pentCentre: Vec3 = [s * Math.cos(30 * deg) + s / (2 * Math.tan(36 * deg)), 0, 0];
  const pr = s / (2 * Math.sin(36 * deg));
  const ring: Record<string, [string, Vec3]> = {
    N1: ['N', onCircle(hexCentre, s, 150)],
    C2: ['C', onCircle(hexCentre, s, 210)],
    N3: ['N', onCircle(hexCentre, s, 270)],
    C4: ['C', onCircle(hexCentre, s, 330)],
    C5: ['C', onCircle(hexCentre, s, 30)],
    C6: ['C', onCircle(hexCentre, s, 90)],
    N7: ['N', onCircle(pentCentre, pr, 72)],
    C8: ['C', onCircle(pentCentre, pr, 0)],
    N9: ['N', onCircle(pentCentre, pr, -72)],
  };
  const names = Object.keys(ring);
  const atoms: SdfMolecule['atoms'] = names.map((n) => ({ element: ring[n]![0], position: ring[n]![1] }));
  const index = (n: string) => names.indexOf(n);
  const bonds: SdfBond[] = [];
  const bond = (a: number, b: number, order: 1 | 2 = 1) => bonds.push({ from: a, to: b, order });
  const ringBonds: [string, string, 1 | 2][] = [
    ['N1', 'C2', 1],
    ['C2', 'N3', 1],
    ['N3', 'C4', 1],
    ['C4', 'C5', 2],
    ['C5', 'C6', 1],
    ['C6', 'N1', 1],
    ['C5', 'N7', 1],
    ['N7', 'C8', 1],
    ['C8', 'N9', 2],
    ['N9', 'C4', 1],
  ];
  for (const [a, b, order] of ringBonds) bond(index(a), index(b), order);
  // A substituent points away from its ring's centre, along the bisector of the exterior angle.
  const outward = (n: string, centre: Vec3, length: number) =>
    add(ring[n]![1], scale(unit(sub(ring[n]![1], centre)), length));
  const addAtom = (element: string, position: Vec3) => atoms.push({ element, position }) - 1;
  bond(index('C2'), addAtom('O', outward('C2', hexCentre, 1.23)), 2);
  bond(index('C6'), addAtom('O', outward('C6', hexCentre, 1.23)), 2);
  bond(index('C8'), addAtom('H', outward('C8', pentCentre, 1.08)));
  const methyls: [string, Vec3, string][] = [
    ['N1', hexCentre, 'C2'],
    ['N3', hexCentre, 'C2'],
    ['N7', pentCentre, 'C8'],
  ];
  for (const [n, centre, neighbour] of methyls) {
    const carbon = outward(n, centre, 1.47);
    const c = addAtom('C', carbon);
    bond(index(n), c);
    for (const torsion of [60, 180, 300]) {
      bond(c, addAtom('H', placeAtom(ring[neighbour]![1], ring[n]![1], carbon, 1.09, 109.47, torsion)));
    }
  }
  return { name: 'caffeine', comment: 'Idealised geometry: planar purine, 1.38 A ring bonds', atoms, bonds };
}
