import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { missingSlices } from '../../../server/imaging/dicom/dicom-series-decode.ts';
import { writeDicomFile, type FixtureElement } from '../../fixtures/dicom-writer.ts';

function slice(index: number): Uint8Array {
  const pixels = new Uint8Array(Uint16Array.from({ length: 12 }, (_, i) => index * 100 + i).buffer);
  const elements: FixtureElement[] = [
    { tag: '00200032', vr: 'DS', value: `0\\0\\${index * 3.5}` },
    { tag: '00200037', vr: 'DS', value: '1\\0\\0\\0\\1\\0' },
    { tag: '00280010', vr: 'US', value: [3] },
    { tag: '00280011', vr: 'US', value: [4] },
    { tag: '00280100', vr: 'US', value: [16] },
    { tag: '00280030', vr: 'DS', value: '0.8\\0.8' },
    { tag: '00180050', vr: 'DS', value: '5' },
    { tag: '7FE00010', vr: 'OW', value: pixels },
  ];
  return writeDicomFile({ syntax: 'explicit-le', elements });
}

describe('DICOM series (a zip of slices in stack order)', () => {
  it('stacks the slices and takes the slice spacing from their positions, not the thickness', async () => {
    const zip = zipSync({ 'slice-0001.dcm': slice(0), 'slice-0002.dcm': slice(1), 'slice-0003.dcm': slice(2) });
    const volume = await decodeImage(zip, 'dcm');
    expect([volume.width, volume.height, volume.depth]).toEqual([4, 3, 3]);
    expect(Array.from(volume.data.subarray(12, 15))).toEqual([100, 101, 102]);
    expect(volume.spacing).toEqual([0.8, 0.8, 3.5]);
  });
});

describe('slices missing from a series', () => {
  it('counts them from the gaps between positions, a multiple of the stack step', () => {
    const at = (...z: number[]) => z.map((v) => [10, -4, v]);
    expect(missingSlices(at(0, 2.5, 5, 7.5))).toBe(0);
    expect(missingSlices(at(0, 2.5, 7.5, 10))).toBe(1);
    expect(missingSlices(at(0, 2.5, 10, 12.5, 20))).toBe(4);
    // Spacing as scanners write it (rounded decimals, a step a little uneven) is no gap.
    expect(missingSlices(at(0, 2.5, 4.99, 7.51, 10.2))).toBe(0);
    // A position given twice is not the step; fewer than three positions, or one missing, say nothing.
    expect(missingSlices(at(0, 0, 3, 9))).toBe(1);
    expect(missingSlices(at(0, 10))).toBe(0);
    expect(missingSlices([[0, 0, 0], undefined, [0, 0, 10]])).toBe(0);
  });

  it('are reported on the decoded series, and a complete one has none', async () => {
    const complete = await decodeImage(
      zipSync({ 'slice-0001.dcm': slice(0), 'slice-0002.dcm': slice(1), 'slice-0003.dcm': slice(2) }),
      'dcm',
    );
    expect(complete.missingSlices).toBeUndefined();
    const gap = await decodeImage(
      zipSync({ 'slice-0001.dcm': slice(0), 'slice-0002.dcm': slice(1), 'slice-0003.dcm': slice(4) }),
      'dcm',
    );
    expect(gap.missingSlices).toBe(2);
  });
});
