import { describe, expect, it } from 'vitest';
import { CT_WINDOWS, looksLikeHounsfield, windowRange } from '../../../src/stores/volume-window-presets.ts';

describe('CT windows', () => {
  it('turn width and level into the displayed range', () => {
    expect(windowRange({ width: 400, level: 40 })).toEqual({ min: -160, max: 240 });
    expect(windowRange(CT_WINDOWS.find((w) => w.label === 'Lung')!)).toEqual({ min: -1350, max: 150 });
  });
  it('are offered for volumes whose darkest voxels are air in Hounsfield units', () => {
    expect(looksLikeHounsfield(-1024)).toBe(true);
    expect(looksLikeHounsfield(0)).toBe(false);
  });
});
