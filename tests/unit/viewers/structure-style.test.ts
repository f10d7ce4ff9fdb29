import { describe, expect, it } from 'vitest';
import { modelFromQuery, modelViewerLink, relatedStructures } from '../../../src/lib/structure-catalog.ts';
import { backgroundColor, effectiveRepresentation, styleSpec } from '../../../src/lib/structure-style.ts';

describe('the 3D Models address', () => {
  it('defaults to protein_001 of type protein', () => {
    expect(modelFromQuery('')).toEqual({ id: 'protein_001', type: 'protein' });
  });
  it('takes the type of a known id when the address gives the id alone', () => {
    expect(modelFromQuery('?id=molecule_002')).toEqual({ id: 'molecule_002', type: 'molecule' });
  });
  it('keeps an unknown id and type as asked, for the error to name them', () => {
    expect(modelFromQuery('?id=x&type=y')).toEqual({ id: 'x', type: 'y' });
  });
  it('shares a link that reads back as the same model', () => {
    const link = modelViewerLink('https://qc.example', 'molecule_001', 'molecule');
    expect(link).toBe('https://qc.example/dashboard/model-viewer?id=molecule_001&type=molecule');
    expect(modelFromQuery(new URL(link).search)).toEqual({ id: 'molecule_001', type: 'molecule' });
  });
  it('lists related models of the same type first, without the current one', () => {
    const related = relatedStructures({ id: 'protein_001', type: 'protein' }).map((s) => s.id);
    expect(related.slice(0, 2)).toEqual(['protein_002', 'protein_003']);
    expect(related).not.toContain('protein_001');
  });
});

describe('3Dmol styles', () => {
  it('gives each representation its own 3Dmol primitive', () => {
    const base = { colorScheme: 'chain', background: 'white' } as const;
    expect(Object.keys(styleSpec({ ...base, representation: 'ball-stick' }, 'protein'))).toEqual(['stick', 'sphere']);
    expect(styleSpec({ ...base, representation: 'space-fill' }, 'protein')).toEqual({
      sphere: { colorscheme: 'chain' },
    });
    expect(styleSpec({ ...base, representation: 'ribbon' }, 'protein').cartoon).toMatchObject({ ribbon: true });
    expect(styleSpec({ ...base, representation: 'cartoon' }, 'protein')).toEqual({ cartoon: { colorscheme: 'chain' } });
  });
  it('maps the colour schemes to 3Dmol scheme names', () => {
    const spec = (colorScheme: 'element' | 'chain' | 'residue' | 'secondary') =>
      styleSpec({ representation: 'space-fill', colorScheme, background: 'white' }, 'protein').sphere!.colorscheme;
    expect(['element', 'chain', 'residue', 'secondary'].map((c) => spec(c as never))).toEqual([
      'Jmol',
      'chain',
      'amino',
      'ssJmol',
    ]);
  });
  it('draws a small molecule as ball and stick when a cartoon is asked for', () => {
    expect(effectiveRepresentation('cartoon', 'molecule')).toBe('ball-stick');
    expect(effectiveRepresentation('space-fill', 'molecule')).toBe('space-fill');
  });
  it('has the three backgrounds', () => {
    expect(['white', 'black', 'gray'].map((b) => backgroundColor(b as never))).toEqual([
      '#ffffff',
      '#000000',
      '#808080',
    ]);
  });
});
