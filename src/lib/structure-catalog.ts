import type { StructureFormat } from './structure-stats.ts';

/** The kinds of model the 3D Models view shows. */
export type StructureType = 'protein' | 'molecule';

/** One structure file of `public/structures/`, as the 3D Models view lists it. */
export interface StructureEntry {
  id: string;
  type: StructureType;
  name: string;
  description: string;
  format: StructureFormat;
}

/** Every model the viewer offers; the files are written by `scripts/generate-structures.ts`. */
export const STRUCTURES: readonly StructureEntry[] = [
  {
    id: 'protein_001',
    type: 'protein',
    name: 'Helix–sheet assembly',
    description: 'Two antiparallel α-helices beside a two-stranded antiparallel β-sheet, four chains.',
    format: 'pdb',
  },
  {
    id: 'protein_002',
    type: 'protein',
    name: 'Three-helix bundle',
    description: 'Three ideal α-helices, alternating in direction, one chain each.',
    format: 'pdb',
  },
  {
    id: 'protein_003',
    type: 'protein',
    name: 'Four-stranded β-sheet',
    description: 'Four ideal antiparallel β-strands, one chain each.',
    format: 'pdb',
  },
  {
    id: 'molecule_001',
    type: 'molecule',
    name: 'Caffeine',
    description: '1,3,7-trimethylxanthine, C8H10N4O2, with an idealised planar purine.',
    format: 'sdf',
  },
  { id: 'molecule_002', type: 'molecule', name: 'Benzene', description: 'C6H6 at ideal D6h geometry.', format: 'sdf' },
  {
    id: 'molecule_003',
    type: 'molecule',
    name: 'Water',
    description: 'H2O at its equilibrium geometry.',
    format: 'sdf',
  },
];

/** The model shown when the address names none. */
export const DEFAULT_MODEL = { id: 'protein_001', type: 'protein' as StructureType };

/** The entry of an id and type, or undefined when there is no such model. */
export function findStructure(id: string, type: string): StructureEntry | undefined {
  return STRUCTURES.find((s) => s.id === id && s.type === type);
}

/**
 * Where the structure file of an entry is served.
 * @example structureFileUrl(entry) // "/structures/protein_001.pdb"
 */
export function structureFileUrl(entry: StructureEntry): string {
  return `/structures/${entry.id}.${entry.format}`;
}

/** The other models, those of the same type first. */
export function relatedStructures(entry: Pick<StructureEntry, 'id' | 'type'>): StructureEntry[] {
  const others = STRUCTURES.filter((s) => s.id !== entry.id);
  return [...others.filter((s) => s.type === entry.type), ...others.filter((s) => s.type !== entry.type)];
}

/**
 * The shareable address of a model.
 * @example modelViewerLink('https://lumenqc.example', 'protein_002', 'protein')
 * // "https://lumenqc.example/dashboard/model-viewer?id=protein_002&type=protein"
 */
export function modelViewerLink(origin: string, id: string, type: string): string {
  return `${origin}/dashboard/model-viewer?${new URLSearchParams({ id, type })}`;
}

/**
 * The id and type an address asks for, with the defaults of SPEC §2 for any left out.
 * @example modelFromQuery('?id=molecule_001&type=molecule') // { id: 'molecule_001', type: 'molecule' }
 */
export function modelFromQuery(search: string): { id: string; type: string } {
  const params = new URLSearchParams(search);
  const id = params.get('id') || DEFAULT_MODEL.id;
  // An address with an id alone still opens that model, whatever its type.
  const type = params.get('type') || STRUCTURES.find((s) => s.id === id)?.type || DEFAULT_MODEL.type;
  return { id, type };
}
