import type { Vec3 } from './structure-geometry.ts';

/** One ATOM record's content. */
export interface PdbAtomRecord {
  serial: number;
  name: string;
  residueName: string;
  chainId: string;
  residueNumber: number;
  position: Vec3;
  element: string;
  hetero?: boolean;
}

/** A HELIX or SHEET record's span: first and last residue of one chain. */
export interface PdbSpan {
  chainId: string;
  startName: string;
  startNumber: number;
  endName: string;
  endNumber: number;
}

const right = (value: string | number, width: number) => String(value).padStart(width);
const left = (value: string | number, width: number) => String(value).padEnd(width);
// Rounding first keeps "-0.000" out of the file.
const coord = (value: number) => (Math.round(value * 1000) / 1000 || 0).toFixed(3).padStart(8);

// Atom names start in column 13 when the element symbol has two letters, column 14 otherwise (PDB v3.3 §9).
const atomName = (name: string, element: string) =>
  name.length === 4 || element.length === 2 ? left(name, 4) : ` ${left(name, 3)}`;

/**
 * One fixed-column ATOM or HETATM line (80 columns).
 * @example formatAtom({ serial: 1, name: 'N', residueName: 'ALA', chainId: 'A', residueNumber: 1, position: [0, 0, 0], element: 'N' })
 */
export function formatAtom(a: PdbAtomRecord): string {
  const record = a.hetero ? 'HETATM' : 'ATOM  ';
  const line =
    `${record}${right(a.serial, 5)} ${atomName(a.name, a.element)} ${right(a.residueName, 3)} ${a.chainId}` +
    `${right(a.residueNumber, 4)}    ${coord(a.position[0])}${coord(a.position[1])}${coord(a.position[2])}` +
    `  1.00  0.00          ${right(a.element, 2)}  `;
  return line;
}

/** A HELIX record (right-handed α, class 1). */
export function formatHelix(serial: number, span: PdbSpan): string {
  const length = span.endNumber - span.startNumber + 1;
  return left(
    `HELIX  ${right(serial, 3)} ${right(serial, 3)} ${span.startName} ${span.chainId} ${right(span.startNumber, 4)}  ` +
      `${span.endName} ${span.chainId} ${right(span.endNumber, 4)}  1${' '.repeat(30)} ${right(length, 5)}`,
    80,
  );
}

/** A SHEET record; sense 0 for the first strand, −1 antiparallel, 1 parallel to the previous one. */
export function formatSheet(
  strand: number,
  sheetId: string,
  strandCount: number,
  span: PdbSpan,
  sense: number,
): string {
  return left(
    `SHEET  ${right(strand, 3)} ${right(sheetId, 3)}${right(strandCount, 2)} ${span.startName} ${span.chainId}` +
      `${right(span.startNumber, 4)}  ${span.endName} ${span.chainId}${right(span.endNumber, 4)} ${right(sense, 2)}`,
    80,
  );
}

/** A TER record closing a chain after its last atom. */
export function formatTer(serial: number, residueName: string, chainId: string, residueNumber: number): string {
  return left(`TER   ${right(serial, 5)}      ${residueName} ${chainId}${right(residueNumber, 4)}`, 80);
}
