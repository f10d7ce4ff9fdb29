import type { Vec3 } from './structure-geometry.ts';

/** One atom read from an ATOM or HETATM record. */
export interface ParsedPdbAtom {
  serial: number;
  name: string;
  residueName: string;
  chainId: string;
  residueNumber: number;
  insertionCode: string;
  position: Vec3;
  element: string;
  hetero: boolean;
}

/** What a PDB file holds that the viewer counts. */
export interface ParsedPdb {
  atoms: ParsedPdbAtom[];
  helixCount: number;
  strandCount: number;
}

// Old files leave columns 77–78 empty: the element is then the atom name's letters.
function elementOf(line: string, name: string): string {
  const column = line.slice(76, 78).trim();
  if (column) return column;
  const letters = name.replace(/[^A-Za-z]/g, '');
  return letters.slice(0, 1);
}

/**
 * Reads the atoms and the HELIX/SHEET records of a PDB file by its fixed columns.
 * @example parsePdb(text).helixCount // 2
 */
export function parsePdb(text: string): ParsedPdb {
  const atoms: ParsedPdbAtom[] = [];
  let helixCount = 0;
  let strandCount = 0;
  for (const line of text.split(/\r?\n/)) {
    const record = line.slice(0, 6);
    if (record === 'HELIX ') helixCount += 1;
    else if (record === 'SHEET ') strandCount += 1;
    else if (record === 'ENDMDL')
      break; // count only the first model of an ensemble
    else if (record === 'ATOM  ' || record === 'HETATM') {
      const name = line.slice(12, 16).trim();
      atoms.push({
        serial: Number(line.slice(6, 11)),
        name,
        residueName: line.slice(17, 20).trim(),
        chainId: line.slice(21, 22).trim(),
        residueNumber: Number(line.slice(22, 26)),
        insertionCode: line.slice(26, 27).trim(),
        position: [Number(line.slice(30, 38)), Number(line.slice(38, 46)), Number(line.slice(46, 54))],
        element: elementOf(line, name),
        hetero: record === 'HETATM',
      });
    }
  }
  return { atoms, helixCount, strandCount };
}
