import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePdb, type ParsedPdbAtom } from '../../../src/lib/pdb-parse.ts';
import { STRUCTURES, structureFileUrl } from '../../../src/lib/structure-catalog.ts';
import { angle, dihedral, distance } from '../../../src/lib/structure-geometry.ts';
import { parseSdf } from '../../../src/lib/structure-sdf.ts';
import { structureStats } from '../../../src/lib/structure-stats.ts';

const read = (id: string) => {
  const entry = STRUCTURES.find((s) => s.id === id)!;
  return readFileSync(`public${structureFileUrl(entry)}`, 'utf8');
};
const proteins = ['protein_001', 'protein_002', 'protein_003'];

function residuesOf(atoms: ParsedPdbAtom[]) {
  const byKey = new Map<string, Map<string, ParsedPdbAtom>>();
  for (const a of atoms) {
    const key = `${a.chainId}:${a.residueNumber}`;
    if (!byKey.has(key)) byKey.set(key, new Map());
    byKey.get(key)!.set(a.name, a);
  }
  return [...byKey.entries()].map(([key, names]) => ({
    chain: key.split(':')[0]!,
    at: (n: string) => names.get(n)!.position,
  }));
}

describe('the generated protein files', () => {
  it.each(proteins)('%s keeps standard backbone bond lengths and angles', (id) => {
    const residues = residuesOf(parsePdb(read(id)).atoms);
    residues.forEach((r, i) => {
      expect(distance(r.at('N'), r.at('CA'))).toBeCloseTo(1.458, 2);
      expect(distance(r.at('CA'), r.at('C'))).toBeCloseTo(1.525, 2);
      expect(distance(r.at('C'), r.at('O'))).toBeCloseTo(1.231, 2);
      expect(angle(r.at('N'), r.at('CA'), r.at('C'))).toBeCloseTo(111.2, 0);
      const next = residues[i + 1];
      if (next && next.chain === r.chain) {
        expect(distance(r.at('C'), next.at('N'))).toBeCloseTo(1.329, 2);
        expect(Math.abs(dihedral(r.at('CA'), r.at('C'), next.at('N'), next.at('CA')))).toBeCloseTo(180, 0);
      }
    });
  });

  it.each(proteins)('%s has helices and strands exactly where its HELIX and SHEET records say', (id) => {
    const text = read(id);
    const helixChains = text
      .split('\n')
      .filter((l) => l.startsWith('HELIX '))
      .map((l) => l.slice(19, 20));
    const sheetChains = text
      .split('\n')
      .filter((l) => l.startsWith('SHEET '))
      .map((l) => l.slice(21, 22));
    const residues = residuesOf(parsePdb(text).atoms);
    for (let i = 1; i < residues.length - 1; i++) {
      const [prev, r, next] = [residues[i - 1]!, residues[i]!, residues[i + 1]!];
      if (prev.chain !== r.chain || next.chain !== r.chain) continue;
      const phi = dihedral(prev.at('C'), r.at('N'), r.at('CA'), r.at('C'));
      const psi = dihedral(r.at('N'), r.at('CA'), r.at('C'), next.at('N'));
      const expected = helixChains.includes(r.chain) ? [-57.8, -47] : [-139, 135];
      expect(sheetChains.includes(r.chain) || helixChains.includes(r.chain)).toBe(true);
      expect(phi).toBeCloseTo(expected[0]!, 0);
      expect(psi).toBeCloseTo(expected[1]!, 0);
    }
  });

  it.each(proteins)('%s builds L-amino acids (same Cβ handedness as the CCD ideal alanine)', (id) => {
    for (const r of residuesOf(parsePdb(read(id)).atoms).filter((x) => x.at.length)) {
      let cb;
      try {
        cb = r.at('CB');
      } catch {
        continue; // glycine
      }
      expect(dihedral(r.at('C'), r.at('N'), r.at('CA'), cb)).toBeLessThan(-110);
      expect(dihedral(r.at('C'), r.at('N'), r.at('CA'), cb)).toBeGreaterThan(-130);
    }
  });

  it.each(proteins)('%s keeps chains apart: 3 Å between heavy atoms, 2.7 Å for an N–O hydrogen bond', (id) => {
    const atoms = parsePdb(read(id)).atoms;
    for (const a of atoms)
      for (const b of atoms) {
        if (a.chainId >= b.chainId) continue;
        const polar = (a.element === 'N' && b.element === 'O') || (a.element === 'O' && b.element === 'N');
        expect(distance(a.position, b.position)).toBeGreaterThan(polar ? 2.7 : 3);
      }
  });

  it('pairs neighbouring strands of the sheet by backbone hydrogen bonds', () => {
    const atoms = parsePdb(read('protein_003')).atoms;
    for (const [first, second] of [
      ['A', 'B'],
      ['B', 'C'],
      ['C', 'D'],
    ]) {
      const hbonds = atoms
        .filter((a) => a.chainId === first && (a.name === 'N' || a.name === 'O'))
        .flatMap((a) =>
          atoms.filter(
            (b) =>
              b.chainId === second && b.name === (a.name === 'N' ? 'O' : 'N') && distance(a.position, b.position) < 3.2,
          ),
        );
      expect(hbonds.length).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('structure statistics counted from the files', () => {
  it('counts protein_001: four chains, two helices, two strands', () => {
    const text = read('protein_001');
    const atomLines = text.split('\n').filter((l) => l.startsWith('ATOM  ')).length;
    expect(structureStats(text, 'pdb')).toMatchObject({
      atoms: atomLines,
      residues: 52,
      chains: 4,
      helices: 2,
      strands: 2,
    });
  });

  it('counts protein_003: four strands and no helix', () => {
    expect(structureStats(read('protein_003'), 'pdb')).toMatchObject({
      residues: 40,
      chains: 4,
      helices: 0,
      strands: 4,
    });
  });

  it('gives caffeine the formula C8H10N4O2 and 25 bonds', () => {
    expect(structureStats(read('molecule_001'), 'sdf')).toMatchObject({ atoms: 24, formula: 'C8H10N4O2' });
    expect(parseSdf(read('molecule_001')).bonds).toHaveLength(25);
  });

  it('keeps benzene a regular hexagon and water bent at 104.52°', () => {
    const benzene = parseSdf(read('molecule_002'));
    for (const bond of benzene.bonds) {
      const length = distance(benzene.atoms[bond.from]!.position, benzene.atoms[bond.to]!.position);
      expect(length).toBeCloseTo(benzene.atoms[bond.to]!.element === 'H' ? 1.084 : 1.397, 3);
    }
    const [o, h1, h2] = parseSdf(read('molecule_003')).atoms;
    expect(angle(h1!.position, o!.position, h2!.position)).toBeCloseTo(104.52, 1);
    expect(distance(o!.position, h1!.position)).toBeCloseTo(0.9572, 3);
  });

  it('keeps every caffeine bond between 1.05 and 1.5 Å', () => {
    const caffeine = parseSdf(read('molecule_001'));
    for (const bond of caffeine.bonds) {
      const length = distance(caffeine.atoms[bond.from]!.position, caffeine.atoms[bond.to]!.position);
      expect(length).toBeGreaterThan(1.05);
      expect(length).toBeLessThan(1.5);
    }
  });
});
