import { parsePdb } from './pdb-parse.ts';
import { parseSdf } from './structure-sdf.ts';

/** The figures the 3D Models view shows for a structure, all counted from its file. */
export interface StructureStats {
  atoms: number;
  residues: number;
  chains: number;
  helices: number;
  strands: number;
  /** Hill-order formula of every atom in the file, e.g. "C8H10N4O2". */
  formula: string;
}

/** The file formats the viewer reads. */
export type StructureFormat = 'pdb' | 'sdf';

/**
 * The Hill formula of a list of element symbols: C first, then H, then the rest alphabetically.
 * @example hillFormula(['C', 'H', 'H', 'O']) // "CH2O"
 */
export function hillFormula(elements: string[]): string {
  const counts = new Map<string, number>();
  for (const raw of elements) {
    const e = raw.charAt(0).toUpperCase() + raw.slice(1).toLowerCase();
    counts.set(e, (counts.get(e) ?? 0) + 1);
  }
  const hasCarbon = counts.has('C');
  const order = [...counts.keys()].sort((a, b) => {
    const rank = (e: string) => (hasCarbon && e === 'C' ? 0 : hasCarbon && e === 'H' ? 1 : 2);
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  return order.map((e) => `${e}${counts.get(e) === 1 ? '' : counts.get(e)}`).join('');
}

/**
 * Counts atoms, residues, chains, helices and strands in a structure file.
 * @example structureStats(pdbText, 'pdb') // { atoms: 412, residues: 54, chains: 4, helices: 2, strands: 2, … }
 */
export function structureStats(text: string, format: StructureFormat): StructureStats {
  if (format === 'sdf') {
    const molecule = parseSdf(text);
    return {
      atoms: molecule.atoms.length,
      residues: 0,
      chains: 0,
      helices: 0,
      strands: 0,
      formula: hillFormula(molecule.atoms.map((a) => a.element)),
    };
  }
  const pdb = parsePdb(text);
  const residues = new Set(pdb.atoms.map((a) => `${a.chainId}:${a.residueNumber}${a.insertionCode}`));
  const chains = new Set(pdb.atoms.map((a) => a.chainId));
  return {
    atoms: pdb.atoms.length,
    residues: residues.size,
    chains: chains.size,
    helices: pdb.helixCount,
    strands: pdb.strandCount,
    formula: hillFormula(pdb.atoms.map((a) => a.element)),
  };
}
