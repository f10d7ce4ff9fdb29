import type { StructureType } from './structure-catalog.ts';

/** How atoms are drawn. */
export type Representation = 'ball-stick' | 'space-fill' | 'cartoon' | 'ribbon';
/** What decides an atom's colour. */
export type ColorScheme = 'element' | 'chain' | 'residue' | 'secondary';
/** The canvas behind the model. */
export type Background = 'white' | 'black' | 'gray';

/** The viewer's choices, as the controls set them. */
export interface ViewerOptions {
  representation: Representation;
  colorScheme: ColorScheme;
  background: Background;
}

/** The choices a page opens with. */
export const DEFAULT_OPTIONS: ViewerOptions = {
  representation: 'cartoon',
  colorScheme: 'secondary',
  background: 'white',
};

/** Labels of the controls, in the order SPEC §2 lists them. */
export const REPRESENTATIONS: readonly [Representation, string][] = [
  ['ball-stick', 'Ball & Stick'],
  ['space-fill', 'Space Fill'],
  ['cartoon', 'Cartoon'],
  ['ribbon', 'Ribbon'],
];
/** Colour scheme labels. */
export const COLOR_SCHEMES: readonly [ColorScheme, string][] = [
  ['element', 'Element'],
  ['chain', 'Chain'],
  ['residue', 'Residue'],
  ['secondary', 'Secondary Structure'],
];
/** Background labels and colours. */
export const BACKGROUNDS: readonly [Background, string, string][] = [
  ['white', 'White', '#ffffff'],
  ['black', 'Black', '#000000'],
  ['gray', 'Gray', '#808080'],
];

/** Whether a representation needs a protein backbone (cartoons are drawn through Cα atoms). */
export function needsBackbone(representation: Representation): boolean {
  return representation === 'cartoon' || representation === 'ribbon';
}

/**
 * The representation actually drawn: small molecules have no backbone, so cartoons fall back to sticks.
 * @example effectiveRepresentation('cartoon', 'molecule') // "ball-stick"
 */
export function effectiveRepresentation(representation: Representation, type: StructureType): Representation {
  return type === 'molecule' && needsBackbone(representation) ? 'ball-stick' : representation;
}

// 3Dmol.js colour scheme names: Jmol element colours, one colour a chain, amino-acid classes, helix/sheet/coil.
const colorschemes: Record<ColorScheme, string> = {
  element: 'Jmol',
  chain: 'chain',
  residue: 'amino',
  secondary: 'ssJmol',
};

/**
 * The 3Dmol.js atom style of a set of choices.
 * @example styleSpec({ representation: 'cartoon', colorScheme: 'chain', background: 'white' }, 'protein')
 * // { cartoon: { colorscheme: 'chain' } }
 */
export function styleSpec(options: ViewerOptions, type: StructureType): Record<string, Record<string, unknown>> {
  const colorscheme = colorschemes[options.colorScheme];
  switch (effectiveRepresentation(options.representation, type)) {
    case 'ball-stick':
      return { stick: { radius: 0.15, colorscheme }, sphere: { scale: 0.25, colorscheme } };
    case 'space-fill':
      return { sphere: { colorscheme } };
    case 'ribbon':
      return { cartoon: { ribbon: true, thickness: 0.6, colorscheme } };
    default:
      return { cartoon: { colorscheme } };
  }
}

/** The canvas colour of a background choice. */
export function backgroundColor(background: Background): string {
  return BACKGROUNDS.find(([value]) => value === background)?.[2] ?? '#ffffff';
}
