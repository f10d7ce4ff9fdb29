import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DecompressionLimitError, unzipBounded } from '../../../server/imaging/bounded-inflate.ts';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { parseDicom } from '../../../server/imaging/dicom/dicom-dataset.ts';
import { UndecodableImageError } from '../../../server/imaging/volume.ts';
import { expandArchives } from '../../../server/modules/uploads/series.ts';
import {
  deflatedDicomBomb,
  GIB,
  honestNiftiBomb,
  hugePng,
  hugeTiff,
  niftiBomb,
  nrrdBomb,
  zipBomb,
} from '../../fixtures/decompression-bombs.ts';
import { writeNifti, writeNrrd } from '../../fixtures/nifti-writer.ts';
import { makeDicomImage } from '../../fixtures/dicom-fixtures.ts';

/** Runs `work`, expecting a refusal matching `message` within a second; gives the error. */
async function refusedQuickly(work: () => unknown, message: RegExp): Promise<Error> {
  const started = performance.now();
  let caught: unknown;
  try {
    await work();
  } catch (error) {
    caught = error;
  }
  const elapsed = performance.now() - started;
  expect(caught).toBeInstanceOf(UndecodableImageError);
  expect((caught as Error).message).toMatch(message);
  expect(elapsed).toBeLessThan(1000);
  return caught as Error;
}

const ONE_MB = 1024 * 1024 * 1.2;

describe('decompression bombs', () => {
  it('refuses a 1 MB gzip NIfTI that expands to 1 GiB past the 512 KB its header declares', async () => {
    const bomb = niftiBomb();
    expect(bomb.length).toBeLessThan(ONE_MB);
    const error = await refusedQuickly(
      () => decodeImage(bomb, 'nii'),
      /This NIfTI file decompresses to more than 577 KB, more than it declares: refused as a possible decompression bomb/,
    );
    expect(error).toBeInstanceOf(DecompressionLimitError);
  });

  it('refuses a 1 MB gzip NIfTI that honestly declares 1 GiB of voxels before inflating it', async () => {
    const bomb = honestNiftiBomb();
    expect(bomb.length).toBeLessThan(ONE_MB);
    await refusedQuickly(() => decodeImage(bomb, 'nii'), /too large to decode here \(1074 million values/);
  });

  it('refuses gzip NRRD data expanding past its declared sizes', async () => {
    await refusedQuickly(() => decodeImage(nrrdBomb(), 'nrrd'), /This NRRD file decompresses to more than 320 KB/);
  });

  it('refuses a 1 MB deflated DICOM file whose data set inflates to 1 GiB', async () => {
    const bomb = deflatedDicomBomb();
    expect(bomb.length).toBeLessThan(ONE_MB);
    await refusedQuickly(() => decodeImage(bomb, 'dcm'), /This deflated DICOM file decompresses to more than 12 MB/);
    // The same parser runs at upload, in the de-identifying thread.
    await refusedQuickly(() => parseDicom(bomb), /possible decompression bomb/);
  });

  it('refuses a 1 MB zip whose entry declares 1 GiB before inflating anything', async () => {
    const bomb = zipBomb('slice.dcm', GIB);
    expect(bomb.length).toBeLessThan(ONE_MB);
    await refusedQuickly(
      () => unzipBounded(bomb, { totalBytes: GIB, entries: 4000 }),
      /This archive expands more than 100-fold \(1020 KB to 1024 MB\): refused as a possible zip bomb/,
    );
    await refusedQuickly(
      () => unzipBounded(bomb, { totalBytes: 512 * 1024 * 1024, entries: 4000 }),
      /This archive expands to 1024 MB, more than the 512 MB one upload may hold/,
    );
    // At upload, what may be stored is also bounded by what was sent (see tests/server/series-expansion.test.ts);
    // the archive is opened on the imaging pool, started beforehand so what is timed is the refusal.
    await expandArchives([{ name: 'empty.zip', bytes: zipSync({}) }], GIB, 1);
    await refusedQuickly(
      () => expandArchives([{ name: 'slices.zip', bytes: new Uint8Array(bomb) }], GIB, 4000),
      /This upload expands to more than 64 MB, over 10 times the 1020 KB sent: refused as a possible zip bomb/,
    );
  });

  it('refuses a 1 MB zip whose entry lies, declaring 1 KB, once it passes that', async () => {
    const bomb = zipBomb('slice.dcm', GIB, 1000);
    await refusedQuickly(
      // A copy: the archive's own buffer is handed to the imaging pool.
      () => expandArchives([{ name: 'slices.zip', bytes: new Uint8Array(bomb) }], GIB, 4000),
      /The archive entry slice.dcm decompresses to more than 1 KB, more than it declares/,
    );
    // A stored series item is a zip too, opened the same way when it is decoded.
    await refusedQuickly(() => decodeImage(bomb, 'dcm'), /more than it declares/);
  });

  it('refuses a small PNG and TIFF declaring 16000 x 16000 pixels before decoding a pixel', async () => {
    const png = hugePng();
    const tiff = hugeTiff();
    expect(png.length + tiff.length).toBeLessThan(4096);
    await refusedQuickly(() => decodeImage(png, 'png'), /too large to decode here \(768 million values/);
    await refusedQuickly(() => decodeImage(tiff, 'tiff'), /too large to decode here \(256 million values/);
  });
});

describe('what the limits still let through', () => {
  it('opens an honest deflated zip, entry by entry, and skips folders', () => {
    const slice = new Uint8Array(200_000).map((_, i) => i % 7);
    const archive = zipSync({ 'a/one.dcm': slice, 'a/': new Uint8Array(0), 'two.txt': new Uint8Array([1, 2]) });
    const files = unzipBounded(archive, { totalBytes: GIB, entries: 10 });
    expect(files.map((f) => [f.name, f.bytes.length])).toEqual([
      ['a/one.dcm', 200_000],
      ['two.txt', 2],
    ]);
    expect(files[0]!.bytes).toEqual(slice);
  });

  it('decodes gzip NIfTI and NRRD whose data is what their headers declare', async () => {
    const values = Array.from({ length: 8 * 8 * 4 }, (_, i) => i);
    const nii = await decodeImage(writeNifti({ dims: [8, 8, 4], values, gzip: true }), 'nii');
    expect(Array.from(nii.data)).toEqual(values);
    const nrrd = await decodeImage(writeNrrd({ sizes: [8, 8, 4], values, type: 'int16', encoding: 'gzip' }), 'nrrd');
    expect(Array.from(nrrd.data)).toEqual(values);
  });

  it('decodes a 4D gzip NIfTI written by nibabel’s test suite (every volume is declared data)', async () => {
    const file = '/usr/lib/python3/dist-packages/nibabel/tests/data/example4d.nii.gz';
    const volume = await decodeImage(readFileSync(file), 'nii');
    expect([volume.width, volume.height, volume.depth]).toEqual([128, 96, 24]);
  });

  it('decodes a deflated DICOM file', async () => {
    const volume = await decodeImage(await makeDicomImage({ syntax: 'deflated' }), 'dcm');
    expect(volume.width).toBeGreaterThan(0);
  });
});
