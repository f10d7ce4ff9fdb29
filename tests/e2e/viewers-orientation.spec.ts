import { zipSync } from 'fflate';
import { writeDicomFile } from '../fixtures/dicom-writer.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { decodePng, signIn, type Pixels } from './viewers-helpers.ts';

const SIZE = 32;

/**
 * An axial CT series (rows to the patient's left, columns to the back, slices upwards) of a cube whose
 * value says where each voxel lies: +400 on the patient's left, +200 in front, +100 above the middle.
 */
function orientedSeries(): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (let z = 0; z < SIZE; z++) {
    const pixels = new Uint8Array(SIZE * SIZE * 2);
    const view = new DataView(pixels.buffer);
    for (let y = 0; y < SIZE; y++)
      for (let x = 0; x < SIZE; x++) {
        const value = 100 + (x >= SIZE / 2 ? 400 : 0) + (y < SIZE / 2 ? 200 : 0) + (z >= SIZE / 2 ? 100 : 0);
        view.setUint16((y * SIZE + x) * 2, value, true);
      }
    entries[`slice${z}.dcm`] = writeDicomFile({
      syntax: 'explicit-le',
      elements: [
        { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.2' },
        { tag: '00080018', vr: 'UI', value: `1.2.826.0.1.3680043.8.498.50.${z + 1}` },
        { tag: '00080060', vr: 'CS', value: 'CT' },
        { tag: '0020000D', vr: 'UI', value: '1.2.826.0.1.3680043.8.498.51' },
        { tag: '0020000E', vr: 'UI', value: '1.2.826.0.1.3680043.8.498.52' },
        { tag: '00200013', vr: 'IS', value: String(z + 1) },
        { tag: '00200032', vr: 'DS', value: `-16\\-16\\${z}` },
        { tag: '00200037', vr: 'DS', value: '1\\0\\0\\0\\1\\0' },
        { tag: '00280002', vr: 'US', value: [1] },
        { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
        { tag: '00280010', vr: 'US', value: [SIZE] },
        { tag: '00280011', vr: 'US', value: [SIZE] },
        { tag: '00280030', vr: 'DS', value: '1\\1' },
        { tag: '00180050', vr: 'DS', value: '1' },
        { tag: '00280100', vr: 'US', value: [16] },
        { tag: '00280101', vr: 'US', value: [16] },
        { tag: '00280102', vr: 'US', value: [15] },
        { tag: '00280103', vr: 'US', value: [0] },
        { tag: '7FE00010', vr: 'OW', value: pixels },
      ],
    });
  }
  return zipSync(entries, { level: 0 });
}

/** Mean brightness of a region of an RGB image given in fractions of its width and height. */
function mean(image: Pixels, x0: number, y0: number, x1: number, y1: number): number {
  let [sum, count] = [0, 0];
  for (let y = Math.floor(y0 * image.height); y < Math.floor(y1 * image.height); y++)
    for (let x = Math.floor(x0 * image.width); x < Math.floor(x1 * image.width); x++) {
      const i = (y * image.width + x) * 3;
      sum += image.data[i]! + image.data[i + 1]! + image.data[i + 2]!;
      count += 1;
    }
  return sum / count;
}

test('the volume viewer shows a CT series the standard way: anterior up, the patient’s left on the right', async ({
  page,
  request,
}) => {
  await signIn(page, request);
  await page.goto('/dashboard/images');
  await page
    .getByLabel('Choose images to upload')
    .setInputFiles({ name: 'oriented.zip', mimeType: 'application/zip', buffer: Buffer.from(orientedSeries()) });
  const card = page.locator('.dash-image-card', { hasText: 'CT_32-slices.zip' });
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await card.getByRole('button', { name: /Details/ }).click();
  // The server's preview: anterior (brighter) at the top, the patient's left (brighter) on the right.
  const preview = await decodePng(
    await page.getByRole('img', { name: /^Preview of CT_32-slices\.zip, axial slice/ }).screenshot(),
  );
  expect(mean(preview, 0.55, 0.1, 0.9, 0.45)).toBeGreaterThan(mean(preview, 0.1, 0.1, 0.45, 0.45));
  expect(mean(preview, 0.55, 0.1, 0.9, 0.45)).toBeGreaterThan(mean(preview, 0.55, 0.55, 0.9, 0.9));

  await page.getByRole('button', { name: 'Open viewer' }).click();
  await expect(page.getByTestId('volume-readout')).toContainText('Voxel', { timeout: 60_000 });
  const shot = await decodePng(await page.locator('canvas.vv-canvas').screenshot());
  // NiiVue's grid: coronal top left, sagittal top right, axial bottom left, the 3D render bottom right.
  // Each tile is compared half against half, inside its quadrant, away from the crosshair at its middle.
  const tile = (column: number, row: number, x0: number, y0: number, x1: number, y1: number) =>
    mean(shot, (column + x0) / 2, (row + y0) / 2, (column + x1) / 2, (row + y1) / 2);
  const halves = (column: number, row: number) => ({
    left: tile(column, row, 0.2, 0.2, 0.45, 0.8),
    right: tile(column, row, 0.55, 0.2, 0.8, 0.8),
    top: tile(column, row, 0.2, 0.2, 0.8, 0.45),
    bottom: tile(column, row, 0.2, 0.55, 0.8, 0.8),
  });
  const axial = halves(0, 1);
  expect(axial.right, 'axial: patient left on the right').toBeGreaterThan(axial.left);
  expect(axial.top, 'axial: anterior at the top').toBeGreaterThan(axial.bottom);
  const coronal = halves(0, 0);
  expect(coronal.right, 'coronal: patient left on the right').toBeGreaterThan(coronal.left);
  expect(coronal.top, 'coronal: superior at the top').toBeGreaterThan(coronal.bottom);
  const sagittal = halves(1, 0);
  expect(sagittal.left, 'sagittal: anterior on the left').toBeGreaterThan(sagittal.right);
  expect(sagittal.top, 'sagittal: superior at the top').toBeGreaterThan(sagittal.bottom);
  await expectAccessible(page);
});
