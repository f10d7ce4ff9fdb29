import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { $moleculeModel, $moleculeRequest, loadRequestedModel } from '../../../src/stores/molecule-viewer.ts';

// Serves the repository's public/ folder, as the site does.
const fromPublic: typeof fetch = async (input) => {
  try {
    return new Response(await readFile(`public${String(input)}`));
  } catch {
    return new Response('not found', { status: 404 });
  }
};

describe('loading a model', () => {
  it('loads the file and counts its statistics', async () => {
    $moleculeRequest.set({ id: 'protein_002', type: 'protein' });
    await loadRequestedModel(fromPublic);
    const model = $moleculeModel.get();
    expect(model.status).toBe('loaded');
    if (model.status === 'loaded')
      expect(model.stats).toMatchObject({ chains: 3, helices: 3, strands: 0, residues: 60 });
  });

  it('names an unknown id and type in a clear error without fetching anything', async () => {
    $moleculeRequest.set({ id: 'protein_404', type: 'protein' });
    let fetched = false;
    await loadRequestedModel(async (input) => ((fetched = true), fromPublic(input)));
    expect(fetched).toBe(false);
    expect($moleculeModel.get()).toEqual({
      status: 'error',
      id: 'protein_404',
      type: 'protein',
      message: 'No 3D model "protein_404" of type "protein" exists. Choose one of the models below.',
    });
  });

  it('keeps the later request when an earlier one answers last', async () => {
    let releaseSlow!: () => void;
    const slow: typeof fetch = async (input) => {
      await new Promise<void>((resolve) => (releaseSlow = resolve));
      return fromPublic(input);
    };
    $moleculeRequest.set({ id: 'protein_001', type: 'protein' });
    const first = loadRequestedModel(slow);
    $moleculeRequest.set({ id: 'molecule_002', type: 'molecule' });
    await loadRequestedModel(fromPublic);
    releaseSlow();
    await first;
    const model = $moleculeModel.get();
    expect(model.status === 'loaded' && model.entry.id).toBe('molecule_002');
  });
});
