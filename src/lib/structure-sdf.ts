import type { Vec3 } from './structure-geometry.ts';

/** One atom of a molfile. */
export interface SdfAtom {
  element: string;
  position: Vec3;
}

/** A bond between two atoms (0-based indexes) of a given order. */
export interface SdfBond {
  from: number;
  to: number;
  order: 1 | 2 | 3;
}

/** A small molecule as an MDL molfile holds it. */
export interface SdfMolecule {
  name: string;
  comment: string;
  atoms: SdfAtom[];
  bonds: SdfBond[];
}

const num = (value: number, width: number, digits: number) => value.toFixed(digits).padStart(width);
const int = (value: number, width: number) => String(value).padStart(width);

/** Writes one molecule as an SD file record (V2000 molfile then `$$$$`). */
export function formatSdf(molecule: SdfMolecule): string {
  const lines = [molecule.name, '  LumenQC  3D', molecule.comment];
  lines.push(`${int(molecule.atoms.length, 3)}${int(molecule.bonds.length, 3)}  0  0  0  0  0  0  0  0999 V2000`);
  for (const atom of molecule.atoms) {
    const [x, y, z] = atom.position;
    lines.push(
      `${num(x, 10, 4)}${num(y, 10, 4)}${num(z, 10, 4)} ${atom.element.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`,
    );
  }
  for (const bond of molecule.bonds)
    lines.push(`${int(bond.from + 1, 3)}${int(bond.to + 1, 3)}${int(bond.order, 3)}  0  0  0  0`);
  lines.push('M  END', '$$$$');
  return `${lines.join('\n')}\n`;
}

/**
 * Reads the first molecule of an SD file (V2000 counts line, atom and bond blocks).
 * @example parseSdf(text).atoms.length // 24 for caffeine
 */
export function parseSdf(text: string): SdfMolecule {
  const lines = text.split(/\r?\n/);
  const counts = lines[3] ?? '';
  const atomCount = Number(counts.slice(0, 3));
  const bondCount = Number(counts.slice(3, 6));
  if (!Number.isInteger(atomCount) || atomCount <= 0 || !counts.includes('V2000')) {
    throw new Error('Not a V2000 molfile');
  }
  const atoms = lines.slice(4, 4 + atomCount).map((line) => ({
    element: line.slice(31, 34).trim(),
    position: [Number(line.slice(0, 10)), Number(line.slice(10, 20)), Number(line.slice(20, 30))] as Vec3,
  }));
  const bonds = lines.slice(4 + atomCount, 4 + atomCount + bondCount).map((line) => ({
    from: Number(line.slice(0, 3)) - 1,
    to: Number(line.slice(3, 6)) - 1,
    order: Number(line.slice(6, 9)) as 1 | 2 | 3,
  }));
  return { name: lines[0] ?? '', comment: lines[2] ?? '', atoms, bonds };
}
