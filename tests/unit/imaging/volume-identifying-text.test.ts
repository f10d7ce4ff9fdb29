import { describe, expect, it } from 'vitest';
import { volumeIdentifyingText } from '../../../server/imaging/volume-identifying-text.ts';
import { writeNifti } from '../../fixtures/nifti-writer.ts';

describe('the free text a volume header says about itself', () => {
  it("reads a NIfTI-1 header's description", () => {
    const nifti = writeNifti({ dims: [2, 2, 2], values: new Array(8).fill(0), description: 'DOE^JOHN scan' });
    expect(volumeIdentifyingText(nifti, 'nii')).toEqual(['DOE^JOHN scan']);
  });

  it("reads an NRRD header's comments, content, labels and key:=value pairs, not its layout fields", () => {
    const header = [
      'NRRD0004',
      '# patient DOE JOHN',
      'type: short',
      'dimension: 3',
      'content: knee of MRN778899',
      'labels: "x" "y" "z"',
      'study:=20240115',
      'encoding: raw',
      '',
      '',
    ].join('\n');
    expect(volumeIdentifyingText(Buffer.from(header, 'latin1'), 'nrrd')).toEqual([
      'patient DOE JOHN',
      'knee of MRN778899',
      'x   y   z',
      '20240115',
    ]);
  });
});
