// A bare DICOM data set behind a few bytes left over from a File Meta cut off in the wrong place (pydicom's
// no_meta.dcm): found, read and decoded like the file it was cut from; other files' bytes are not taken for one.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { leadingBytes } from '../../../server/imaging/dicom/data-set-start.ts';
import { parseDicom } from '../../../server/imaging/dicom/dicom-dataset.ts';
import { looksLikeDicom } from '../../../server/imaging/dicom/part10.ts';
import { makeDicomImage } from '../../fixtures/dicom-fixtures.ts';
import { writeNifti } from '../../fixtures/nifti-writer.ts';
import { readWithPydicom } from '../../fixtures/pydicom-pixels.ts';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
/** The last bytes of a File Meta group: the space padding an AE title, as in no_meta.dcm, and more. */
const leftOver = (count: number) => new Uint8Array(Buffer.from('CLUNIE1 '.repeat(20).slice(-count), 'latin1'));

describe('a data set behind left-over bytes', () => {
  it.each([
    ['explicit VR little endian', 'explicit-le', 1],
    ['explicit VR little endian', 'explicit-le', 7],
    ['implicit VR little endian', 'implicit-le', 3],
    ['explicit VR big endian', 'explicit-be', 2],
    ['explicit VR little endian', 'explicit-le', 128],
  ] as const)('reads %s (%s) behind %i stray bytes as the Part 10 file it came from', async (_name, syntax, count) => {
    const part10 = await makeDicomImage({ syntax, identifying: true });
    const bare = await makeDicomImage({ syntax, identifying: true, preamble: false });
    const cut = concat(leftOver(count), bare);
    expect(looksLikeDicom(cut.subarray(0, 352))).toBe(true);
    expect(leadingBytes(cut)).toBe(count);
    expect(parseDicom(cut).string('x00100010')).toBe(parseDicom(part10).string('x00100010'));
    const [got, want] = await Promise.all([decodeImage(cut, 'dcm'), decodeImage(part10, 'dcm')]);
    expect([got.width, got.height, got.modality]).toEqual([want.width, want.height, want.modality]);
    expect(got.data).toEqual(want.data);
  });

  it('looks no further than a preamble’s worth of bytes', async () => {
    const bare = await makeDicomImage({ preamble: false });
    const cut = concat(leftOver(129), bare);
    expect(leadingBytes(cut)).toBeUndefined();
    expect(looksLikeDicom(cut.subarray(0, 352))).toBe(false);
  });

  it('takes no NIfTI header, text or random bytes for a data set', () => {
    const nifti = writeNifti({ dims: [64, 64, 20], values: new Int16Array(64 * 64 * 20), spacing: [1, 1, 2] });
    const text = new TextEncoder().encode(`x${'\u0008\u0000 plain words and numbers 0123456789 '.repeat(12)}`);
    const random = Uint8Array.from({ length: 352 }, (_, i) => (i * 7919 + 13) % 251);
    for (const bytes of [nifti.subarray(0, 352), text.subarray(0, 352), random]) {
      expect(leadingBytes(bytes)).toBeUndefined();
      expect(looksLikeDicom(bytes)).toBe(false);
    }
  });
});

describe.skipIf(!existsSync(`${PYDICOM}/no_meta.dcm`))('pydicom’s no_meta.dcm', () => {
  it('decodes to the pixels pydicom decodes from CT_small.dcm, whose data set it holds one byte in', async () => {
    const bytes = new Uint8Array(readFileSync(`${PYDICOM}/no_meta.dcm`));
    expect(looksLikeDicom(bytes.subarray(0, 352))).toBe(true);
    const volume = await decodeImage(bytes, 'dcm');
    const reference = readWithPydicom(`${PYDICOM}/CT_small.dcm`);
    const stored = new Int16Array(
      reference.pixels.buffer,
      reference.pixels.byteOffset,
      reference.rows * reference.columns,
    );
    const dataSet = parseDicom(bytes);
    const slope = Number(dataSet.string('x00281053') ?? 1);
    const intercept = Number(dataSet.string('x00281052') ?? 0);
    expect([volume.width, volume.height, volume.modality]).toEqual([reference.columns, reference.rows, 'CT']);
    expect(Array.from(volume.data)).toEqual(Array.from(stored, (v) => v * slope + intercept));
  });
});
