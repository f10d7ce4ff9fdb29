import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bundleDicomSlices } from '../../../src/stores/volume-series-upload.ts';

const file = (name: string, text = name) => new File([text], name);

describe('bundleDicomSlices', () => {
  it('sends DICOM slices chosen together as one zip, and other files as they are', async () => {
    const png = file('photo.png');
    const out = await bundleDicomSlices([file('a.dcm', 'A'), png, file('B.DCM', 'B')]);
    expect(out.map((f) => f.name)).toEqual(['2 DICOM slices.zip', 'photo.png']);
    expect(out[1]).toBe(png);
    const entries = unzipSync(new Uint8Array(await out[0]!.arrayBuffer()));
    expect(Object.keys(entries)).toEqual(['0-a.dcm', '1-B.DCM']);
    expect(new TextDecoder().decode(entries['1-B.DCM'])).toBe('B');
  });

  it('leaves a single DICOM file alone', async () => {
    const one = file('one.dcm');
    expect(await bundleDicomSlices([one])).toEqual([one]);
  });
});
