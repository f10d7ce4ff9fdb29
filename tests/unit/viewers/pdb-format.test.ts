import { describe, expect, it } from 'vitest';
import { formatAtom, formatHelix, formatSheet } from '../../../src/lib/pdb-format.ts';
import { parsePdb } from '../../../src/lib/pdb-parse.ts';
import { hillFormula, structureStats } from '../../../src/lib/structure-stats.ts';

// The first atom of crambin (PDB 1CRN), as the wwPDB distributes it.
const crambinN = 'ATOM      1  N   THR A   1      17.047  14.099   3.625  1.00 13.79           N  ';

describe('PDB records', () => {
  it('writes an ATOM line column for column like a wwPDB file', () => {
    const line = formatAtom({
      serial: 1,
      name: 'N',
      residueName: 'THR',
      chainId: 'A',
      residueNumber: 1,
      position: [17.047, 14.099, 3.625],
      element: 'N',
    });
    expect(line).toHaveLength(80);
    expect(line.slice(0, 60)).toBe(crambinN.slice(0, 60));
    expect(line.slice(66)).toBe(crambinN.slice(66));
  });

  it('reads chain, residue, coordinates and element by column', () => {
    const [atom] = parsePdb(crambinN).atoms;
    expect(atom).toMatchObject({ name: 'N', residueName: 'THR', chainId: 'A', residueNumber: 1, element: 'N' });
    expect(atom!.position).toEqual([17.047, 14.099, 3.625]);
  });

  it('puts HELIX and SHEET fields in the columns of the PDB format guide', () => {
    const span = { chainId: 'B', startName: 'SER', startNumber: 3, endName: 'GLY', endNumber: 18 };
    const helix = formatHelix(2, span);
    expect([helix.slice(7, 10), helix.slice(15, 18), helix.slice(19, 20), helix.slice(21, 25)]).toEqual([
      '  2',
      'SER',
      'B',
      '   3',
    ]);
    expect([
      helix.slice(27, 30),
      helix.slice(31, 32),
      helix.slice(33, 37),
      helix.slice(38, 40),
      helix.slice(71, 76),
    ]).toEqual(['GLY', 'B', '  18', ' 1', '   16']);
    const sheet = formatSheet(2, 'A', 4, span, -1);
    expect([
      sheet.slice(11, 14),
      sheet.slice(14, 16),
      sheet.slice(17, 20),
      sheet.slice(21, 22),
      sheet.slice(22, 26),
    ]).toEqual(['  A', ' 4', 'SER', 'B', '   3']);
    expect([sheet.slice(28, 31), sheet.slice(32, 33), sheet.slice(33, 37), sheet.slice(38, 40)]).toEqual([
      'GLY',
      'B',
      '  18',
      '-1',
    ]);
  });

  it('counts only the first model of an NMR ensemble', () => {
    const text = ['MODEL        1', crambinN, 'ENDMDL', 'MODEL        2', crambinN, 'ENDMDL'].join('\n');
    expect(structureStats(text, 'pdb').atoms).toBe(1);
  });
});

describe('hillFormula', () => {
  it('puts carbon and hydrogen first, then the rest alphabetically', () => {
    expect(hillFormula(['O', 'H', 'C', 'N', 'H', 'C'])).toBe('C2H2NO');
  });
  it('orders every element alphabetically without carbon', () => {
    expect(hillFormula(['O', 'H', 'H'])).toBe('H2O');
  });
});
