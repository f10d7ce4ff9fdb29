import { add, cross, placeAtom, scale, sub, type Vec3 } from './structure-geometry.ts';

/** One atom of a built peptide, in PDB terms. */
export interface PeptideAtom {
  name: string;
  element: string;
  residueName: string;
  residueNumber: number;
  position: Vec3;
}

/** Backbone torsions of a regular secondary structure, in degrees. */
export interface Torsions {
  phi: number;
  psi: number;
  omega: number;
}

/** Ideal right-handed α-helix (Pauling–Corey; 3.6 residues a turn, 1.5 Å rise). */
export const ALPHA_HELIX: Torsions = { phi: -57.8, psi: -47, omega: 180 };
/** Ideal antiparallel β-strand. */
export const BETA_STRAND: Torsions = { phi: -139, psi: 135, omega: 180 };

// Engh & Huber (1991) backbone lengths (Å) and angles (°).
const N_CA = 1.458;
const CA_C = 1.525;
const C_N = 1.329;
const C_O = 1.231;
const N_CA_C = 111.2;
const CA_C_N = 116.2;
const C_N_CA = 121.7;
const CA_C_O = 120.1;

// Side chains as internal coordinates from N–CA–CB onwards: [atom, element, from three atoms, bond, angle, torsion].
type SideChainStep = [string, string, [string, string, string], number, number, number];
const sideChains: Record<string, SideChainStep[]> = {
  ALA: [],
  GLY: [],
  SER: [['OG', 'O', ['N', 'CA', 'CB'], 1.417, 111.1, -65]],
  VAL: [
    ['CG1', 'C', ['N', 'CA', 'CB'], 1.527, 110.7, 175],
    ['CG2', 'C', ['N', 'CA', 'CB'], 1.527, 110.4, -62],
  ],
  LEU: [
    ['CG', 'C', ['N', 'CA', 'CB'], 1.53, 116.3, -65],
    ['CD1', 'C', ['CA', 'CB', 'CG'], 1.524, 110.7, 175],
    ['CD2', 'C', ['CA', 'CB', 'CG'], 1.525, 110.7, -62],
  ],
  LYS: [
    ['CG', 'C', ['N', 'CA', 'CB'], 1.52, 114.1, -65],
    ['CD', 'C', ['CA', 'CB', 'CG'], 1.52, 111.3, 180],
    ['CE', 'C', ['CB', 'CG', 'CD'], 1.52, 111.3, 180],
    ['NZ', 'N', ['CG', 'CD', 'CE'], 1.489, 111.9, 180],
  ],
  GLU: [
    ['CG', 'C', ['N', 'CA', 'CB'], 1.52, 114.1, -65],
    ['CD', 'C', ['CA', 'CB', 'CG'], 1.516, 112.6, 180],
    ['OE1', 'O', ['CB', 'CG', 'CD'], 1.25, 118.4, 0],
    ['OE2', 'O', ['CB', 'CG', 'CD'], 1.25, 118.4, 180],
  ],
};

const oneToThree: Record<string, string> = { A: 'ALA', G: 'GLY', S: 'SER', V: 'VAL', L: 'LEU', K: 'LYS', E: 'GLU' };

/** The residue names this builder knows, one-letter codes. */
export const BUILDABLE_RESIDUES = Object.keys(oneToThree).join('');

/** The ideal β-carbon of an L-amino acid from its N, CA and C (tetrahedral, 1.53 Å). */
function betaCarbon(n: Vec3, ca: Vec3, c: Vec3): Vec3 {
  const b = sub(ca, n);
  const cc = sub(c, ca);
  const a = cross(b, cc);
  return add(ca, add(add(scale(a, -0.58273431), scale(b, 0.56802827)), scale(cc, -0.54067466)));
}

/**
 * Builds a peptide of the given one-letter sequence with every residue at the same backbone torsions,
 * from standard bond lengths and angles. Residues are numbered from `firstNumber`.
 * @example buildPeptide('AEELLKK', ALPHA_HELIX).length // 7 residues' heavy atoms
 */
export function buildPeptide(sequence: string, torsions: Torsions, firstNumber = 1): PeptideAtom[] {
  const atoms: PeptideAtom[] = [];
  let n: Vec3 = [0, 0, 0];
  let ca: Vec3 = [N_CA, 0, 0];
  let c: Vec3 = add(ca, [-CA_C * Math.cos((N_CA_C * Math.PI) / 180), CA_C * Math.sin((N_CA_C * Math.PI) / 180), 0]);
  [...sequence].forEach((letter, i) => {
    const residueName = oneToThree[letter];
    if (!residueName) throw new Error(`No template for residue ${letter}`);
    const residueNumber = firstNumber + i;
    const own = new Map<string, Vec3>([
      ['N', n],
      ['CA', ca],
      ['C', c],
    ]);
    const push = (name: string, element: string, position: Vec3) =>
      atoms.push({ name, element, residueName, residueNumber, position });
    push('N', 'N', n);
    push('CA', 'C', ca);
    push('C', 'C', c);
    push('O', 'O', placeAtom(n, ca, c, C_O, CA_C_O, torsions.psi + 180));
    if (residueName !== 'GLY') {
      own.set('CB', betaCarbon(n, ca, c));
      push('CB', 'C', own.get('CB')!);
      for (const [name, element, [a, b, cc], bond, ang, tor] of sideChains[residueName]!) {
        const position = placeAtom(own.get(a)!, own.get(b)!, own.get(cc)!, bond, ang, tor);
        own.set(name, position);
        push(name, element, position);
      }
    }
    const nextN = placeAtom(n, ca, c, C_N, CA_C_N, torsions.psi);
    const nextCa = placeAtom(ca, c, nextN, N_CA, C_N_CA, torsions.omega);
    const nextC = placeAtom(c, nextN, nextCa, CA_C, N_CA_C, torsions.phi);
    [n, ca, c] = [nextN, nextCa, nextC];
  });
  return atoms;
}
