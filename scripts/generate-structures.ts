// Writes the 3D Models view's structure files into public/structures/ from ideal geometry:
// peptides from standard bond lengths, angles and backbone torsions; small molecules from ideal shapes.
// Run: npx node scripts/generate-structures.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatAtom, formatHelix, formatSheet, formatTer, type PdbSpan } from '../src/lib/pdb-format.ts';
import { STRUCTURES, structureFileUrl } from '../src/lib/structure-catalog.ts';
import { centroid, cross, distance, scale, sub, toFrame, type Vec3 } from '../src/lib/structure-geometry.ts';
import { ALPHA_HELIX, BETA_STRAND, buildPeptide, type PeptideAtom } from '../src/lib/structure-peptide.ts';
import { formatSdf, type SdfMolecule } from '../src/lib/structure-sdf.ts';
import { benzene, caffeine, water } from '../src/lib/structure-small-molecules.ts';

interface Chain {
  id: string;
  kind: 'helix' | 'strand';
  atoms: PeptideAtom[];
}

const caOf = (atoms: PeptideAtom[]) => atoms.filter((a) => a.name === 'CA').map((a) => a.position);

// A chain laid along z, centred on (x, y), pointing up or (antiparallel) down.
function placeChain(
  id: string,
  kind: Chain['kind'],
  sequence: string,
  x: number,
  y: number,
  down: boolean,
  z = 0,
): Chain {
  const atoms = buildPeptide(sequence, kind === 'helix' ? ALPHA_HELIX : BETA_STRAND);
  const ca = caOf(atoms);
  let axis: Vec3;
  let up: Vec3;
  if (kind === 'helix') {
    // Four consecutive Cα of a 3.6-residue helix average to a point near its axis.
    axis = sub(centroid(ca.slice(-4)), centroid(ca.slice(0, 4)));
    up = sub(ca[0]!, centroid(ca.slice(0, 4)));
  } else {
    axis = sub(ca[ca.length - 1]!, ca[0]!);
    // Carbonyls alternate across the strand inside the sheet's plane; side chains leave it along ±y.
    const carbonyls = atoms
      .filter((a) => a.name === 'C')
      .map((c, i) => {
        const o = atoms.find((a) => a.name === 'O' && a.residueNumber === c.residueNumber)!;
        return scale(sub(o.position, c.position), i % 2 === 0 ? 1 : -1);
      });
    up = cross(axis, centroid(carbonyls));
  }
  const framed = toFrame(
    atoms.map((a) => a.position),
    centroid(atoms.map((a) => a.position)),
    axis,
    up,
  );
  // Turning a chain 180° about y keeps its side chains' side and reverses its direction.
  const placed = framed.map(([px, py, pz]) => (down ? [-px + x, py + y, -pz + z] : [px + x, py + y, pz + z]) as Vec3);
  return { id, kind, atoms: atoms.map((a, i) => ({ ...a, position: placed[i]! })) };
}

// The register of a strand beside another: the offset (across, along) with the most N–O hydrogen
// bonds (2.7–3.2 Å) and no other heavy atoms closer than 3 Å, as in a real antiparallel sheet.
function besideStrand(previous: Chain, id: string, sequence: string, x: number, y: number, down: boolean): Chain {
  let best: { chain: Chain; hbonds: number; closest: number } | undefined;
  for (let gap = 4.4; gap <= 5.4; gap += 0.05) {
    for (let z = -3.4; z <= 3.4; z += 0.05) {
      const chain = placeChain(id, 'strand', sequence, x + gap, y, down, z);
      let hbonds = 0;
      let closest = Infinity;
      for (const a of previous.atoms) {
        for (const b of chain.atoms) {
          const d = distance(a.position, b.position);
          const polar = (a.element === 'N' && b.element === 'O') || (a.element === 'O' && b.element === 'N');
          closest = Math.min(closest, polar ? d + 0.3 : d);
          if (polar && d >= 2.7 && d <= 3.2) hbonds += 1;
        }
      }
      if (closest < 3) continue;
      if (!best || hbonds > best.hbonds || (hbonds === best.hbonds && closest > best.closest)) {
        best = { chain, hbonds, closest };
      }
    }
  }
  if (!best) throw new Error(`No clash-free register for strand ${id}`);
  return best.chain;
}

function spanOf(chain: Chain): PdbSpan {
  const first = chain.atoms[0]!;
  const last = chain.atoms[chain.atoms.length - 1]!;
  return {
    chainId: chain.id,
    startName: first.residueName,
    startNumber: first.residueNumber,
    endName: last.residueName,
    endNumber: last.residueNumber,
  };
}

// A cyclic permutation of the axes is a rotation: chains built along z then run across the screen of
// 3Dmol.js's default camera (which looks down z) instead of pointing at it.
const acrossScreen = ([x, y, z]: Vec3): Vec3 => [z, x, y];

function pdbFile(title: string, chains: Chain[]): string {
  const lines = [
    `HEADER    DE NOVO PROTEIN                         21-NOV-26   LQC1`.padEnd(80),
    `TITLE     ${title}`.padEnd(80),
  ];
  lines.push('REMARK   3 IDEAL GEOMETRY: ENGH & HUBER BOND LENGTHS AND ANGLES, REGULAR PHI/PSI'.padEnd(80));
  chains.filter((c) => c.kind === 'helix').forEach((c, i) => lines.push(formatHelix(i + 1, spanOf(c))));
  const strands = chains.filter((c) => c.kind === 'strand');
  strands.forEach((c, i) => lines.push(formatSheet(i + 1, 'A', strands.length, spanOf(c), i === 0 ? 0 : -1)));
  let serial = 1;
  for (const chain of chains) {
    for (const atom of chain.atoms) {
      lines.push(formatAtom({ ...atom, position: acrossScreen(atom.position), serial: serial++, chainId: chain.id }));
    }
    const last = chain.atoms[chain.atoms.length - 1]!;
    lines.push(formatTer(serial++, last.residueName, chain.id, last.residueNumber));
  }
  lines.push('END'.padEnd(80));
  return `${lines.join('\n')}\n`;
}

const proteins: Record<string, string> = {
  protein_001: (() => {
    const c = placeChain('C', 'strand', 'GAGAGSGA', 30, 0, false);
    return pdbFile('HELIX-SHEET ASSEMBLY: TWO ALPHA-HELICES AND A TWO-STRANDED ANTIPARALLEL SHEET', [
      placeChain('A', 'helix', 'SAEELLKKLAELLKKLAG', 0, 0, false),
      placeChain('B', 'helix', 'SKELAEKLVELAKKLEEG', 15, 0, true),
      c,
      besideStrand(c, 'D', 'AGSGAGAG', 30, 0, true),
    ]);
  })(),
  protein_002: pdbFile('THREE-HELIX BUNDLE OF IDEAL ALPHA-HELICES', [
    placeChain('A', 'helix', 'SLEELLKKAEELLKKAEELG', 0, 0, false),
    placeChain('B', 'helix', 'SKKLLEELAKKLLEELAKKG', 15, 0, true),
    placeChain('C', 'helix', 'SEEALKKLLEEAKKLLEEAG', 7.5, 13, false),
  ]),
  protein_003: (() => {
    const sequences = ['SGAGAGAGSG', 'GSGAGAGAGS', 'SGAGAGAGSG', 'GSGAGAGAGS'];
    const strands = [placeChain('A', 'strand', sequences[0]!, 0, 0, false)];
    for (let i = 1; i < 4; i++) {
      const previous = strands[i - 1]!;
      const x = centroid(previous.atoms.map((a) => a.position))[0];
      strands.push(besideStrand(previous, 'ABCD'[i]!, sequences[i]!, x, 0, i % 2 === 1));
    }
    return pdbFile('FOUR-STRANDED ANTIPARALLEL BETA-SHEET', strands);
  })(),
};

const molecules: Record<string, SdfMolecule> = {
  molecule_001: caffeine(),
  molecule_002: benzene(),
  molecule_003: water(),
};

const out = path.resolve('public');
mkdirSync(path.join(out, 'structures'), { recursive: true });
for (const entry of STRUCTURES) {
  const text = entry.format === 'pdb' ? proteins[entry.id] : molecules[entry.id] && formatSdf(molecules[entry.id]!);
  if (!text) throw new Error(`No builder for ${entry.id}`);
  writeFileSync(path.join(out, structureFileUrl(entry)), text);
  console.log(`wrote public${structureFileUrl(entry)}`);
}
