import { makeDicomImage } from '../fixtures/dicom-fixtures.ts';
import { seriesFiles, seriesVoxel, seriesZip } from '../fixtures/dicom-series.ts';
import { writeNifti, writeNrrd } from '../fixtures/nifti-writer.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { changedFraction, drawnFraction, pixelsOf, signIn, type Pixels } from './viewers-helpers.ts';

test.describe.configure({ timeout: 180_000 });

// An ellipsoid phantom whose brightness rises slice by slice, so every plane shows tissue and each
// step through a plane shows different pixels.
function phantom(): Uint8Array {
  const [nx, ny, nz] = [48, 48, 32];
  const values = new Int16Array(nx * ny * nz);
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) {
        const r = ((x - 24) / 20) ** 2 + ((y - 24) / 18) ** 2 + ((z - 16) / 14) ** 2;
        values[x + nx * (y + ny * z)] = r <= 1 ? 200 + z * 25 + ((x * 7 + y * 3) % 40) : 0;
      }
  return writeNifti({ dims: [nx, ny, nz], values, type: 'int16', spacing: [1, 1, 1.5] });
}

function quadrant(image: Pixels, column: 0 | 1, row: 0 | 1): Pixels {
  const width = Math.floor(image.width / 2);
  const height = Math.floor(image.height / 2);
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const start = ((row * height + y) * image.width + column * width) * 3;
    image.data.copy(data, y * width * 3, start, start + width * 3);
  }
  return { data, width, height };
}

const valueAt = (x: number, y: number, z: number) => {
  const r = ((x - 24) / 20) ** 2 + ((y - 24) / 18) ** 2 + ((z - 16) / 14) ** 2;
  return r <= 1 ? 200 + z * 25 + ((x * 7 + y * 3) % 40) : 0;
};

test('a NIfTI upload opens in the volume viewer: three slices, 3D render, scrolling, window, colour map, voxel value', async ({
  page,
  request,
}) => {
  const token = await signIn(page, request);
  const upload = await request.post('/api/v1/uploads', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { file: { name: 'phantom.nii', mimeType: 'application/octet-stream', buffer: Buffer.from(phantom()) } },
  });
  expect(upload.status()).toBe(201);
  const item = (await upload.json()) as { url: string };

  // Hold the file back to see the progress indicator, and check it is fetched with the bearer token.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let authorization: string | undefined;
  await page.route(`**${item.url}`, async (route) => {
    authorization = route.request().headers()['authorization'];
    await held;
    await route.continue();
  });
  await page.goto('/dashboard/images');
  await page.getByRole('button', { name: /Details of phantom/ }).click();
  await page.getByRole('button', { name: 'Open viewer' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Loading volume' })).toBeVisible();
  await expect(page.locator('.vv progress')).toBeAttached();
  release();
  const readout = page.getByTestId('volume-readout');
  await expect(readout).toContainText('Voxel', { timeout: 60_000 });
  expect(authorization).toBe(`Bearer ${token}`);

  const canvas = page.locator('canvas.vv-canvas');
  const first = await pixelsOf(canvas);
  // NiiVue's grid: coronal top left, sagittal top right, axial bottom left, 3D render bottom right.
  for (const [column, row] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ] as const) {
    expect(drawnFraction(quadrant(first, column, row)), `tile ${column},${row}`).toBeGreaterThan(0.03);
  }

  // The readout's voxel value is the phantom's value at the crosshair.
  const voxelValue = async () => {
    const text = (await readout.textContent()) ?? '';
    const [, x, y, z, value] = /Voxel \((\d+), (\d+), (\d+)\).*value (-?[\d.]+)/.exec(text) ?? [];
    return { voxel: [Number(x), Number(y), Number(z)] as const, value: Number(value) };
  };
  const start = await voxelValue();
  expect(start.value).toBe(valueAt(...start.voxel));

  // Scrolling with the keyboard: the axial slider moves z, and the axial tile changes.
  const axial = page.getByLabel(/Axial slice/);
  await axial.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await voxelValue()).voxel[2]).toBe(start.voxel[2] + 4);
  const after = await voxelValue();
  expect(after.value).toBe(valueAt(...after.voxel));
  const scrolled = await pixelsOf(canvas);
  expect(changedFraction(quadrant(first, 0, 1), quadrant(scrolled, 0, 1))).toBeGreaterThan(0.01);

  // Scrolling with the wheel over the coronal tile moves y.
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.37, box.y + box.height * 0.2);
  await page.mouse.wheel(0, 120);
  await expect.poll(async () => (await voxelValue()).voxel[1]).not.toBe(after.voxel[1]);

  // Window by preset and by right-button drag over the tissue.
  const windowText = async () => /Window (-?[\d.]+) to (-?[\d.]+)/.exec((await readout.textContent()) ?? '')?.[0];
  const auto = await windowText();
  await page.getByRole('button', { name: 'Full range' }).click();
  await expect.poll(windowText).toMatch(/^Window 0 to /);
  const beforeDrag = await pixelsOf(canvas);
  expect(changedFraction(scrolled, beforeDrag)).toBeGreaterThan(0.01);
  await page.mouse.move(box.x + box.width * 0.33, box.y + box.height * 0.62);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.75, { steps: 5 });
  await page.mouse.up({ button: 'right' });
  await expect.poll(windowText).not.toMatch(/^Window 0 to /);
  expect(await windowText()).not.toBe(auto);

  // Colour map.
  const grey = await pixelsOf(canvas);
  await page.getByLabel('Colour map').selectOption('hot');
  await expect.poll(async () => changedFraction(grey, await pixelsOf(canvas))).toBeGreaterThan(0.02);
  await expectAccessible(page);
});

test('a 20-slice DICOM series uploaded as a zip appears as one item and opens as one volume', async ({
  page,
  request,
}) => {
  await signIn(page, request);
  await page.goto('/dashboard/images');
  await page.getByLabel('Choose images to upload').setInputFiles({
    name: 'head-ct.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(seriesZip({ slices: 20, size: 32 })),
  });
  // De-identified on arrival, so named from its values (modality, slice count), not the archive's name.
  const card = page.locator('.dash-image-card', { hasText: 'CT_20-slices.zip' });
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await expect(card).toContainText('20 slices');
  await expect(page.locator('.dash-image-card')).toHaveCount(1);
  await expectAccessible(page);

  await card.getByRole('button', { name: /Details/ }).click();
  await page.getByRole('button', { name: 'Open viewer' }).click();
  const readout = page.getByTestId('volume-readout');
  await expect(readout).toContainText('Voxel', { timeout: 60_000 });
  await expect(page.getByLabel(/Axial slice/)).toHaveAttribute('max', '19');
  const shot = await pixelsOf(page.locator('canvas.vv-canvas'));
  for (const [column, row] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ] as const) {
    expect(drawnFraction(quadrant(shot, column, row)), `tile ${column},${row}`).toBeGreaterThan(0.02);
  }
  // The value under the crosshair is the fixture's value of that voxel: the slices are stacked in order.
  const text = (await readout.textContent()) ?? '';
  const [, x, y, z, value] = /Voxel \((\d+), (\d+), (\d+)\).*value (-?[\d.]+)/.exec(text) ?? [];
  expect(Number(value)).toBe(seriesVoxel(Number(x), Number(y), Number(z), 32, 20));
  expect(Number(value)).toBeGreaterThan(0);
  // Hounsfield units: the CT windows are offered and set the window they name.
  await page.getByRole('button', { name: 'Soft tissue (W 400 L 40)' }).click();
  await expect(readout).toContainText('Window -160 to 240');
});

test('DICOM slices chosen together become one series; NRRD and single DICOM items open too', async ({
  page,
  request,
}) => {
  const token = await signIn(page, request);
  const upload = (name: string, buffer: Buffer) =>
    request.post('/api/v1/uploads', {
      headers: { Authorization: `Bearer ${token}` },
      multipart: { file: { name, mimeType: 'application/octet-stream', buffer } },
    });
  const values = Array.from({ length: 24 * 24 * 12 }, (_, i) => (i % 24) * 10 + Math.floor(i / 576) * 5);
  expect(
    (
      await upload(
        'knee.nrrd',
        Buffer.from(writeNrrd({ sizes: [24, 24, 12], values, type: 'int16', encoding: 'gzip' })),
      )
    ).status(),
  ).toBe(201);
  const frames = await makeDicomImage({ width: 16, height: 12, frames: 6 });
  expect((await upload('multiframe.dcm', Buffer.from(frames))).status()).toBe(201);

  await page.goto('/dashboard/images');
  await page.getByLabel('Choose images to upload').setInputFiles(
    seriesFiles({ slices: 5, size: 16 }).map((f) => ({
      name: f.name,
      mimeType: 'application/dicom',
      buffer: Buffer.from(f.bytes),
    })),
  );
  const series = page.locator('.dash-image-card', { hasText: 'CT_5-slices.zip' });
  await expect(series).toContainText('5 slices', { timeout: 30_000 });
  await expect(page.locator('.dash-image-card')).toHaveCount(3);

  for (const [name, slices] of [
    ['knee.nrrd', 12],
    // Its name repeats nothing identifying, so it is kept.
    ['multiframe.dcm', 6],
    ['CT_5-slices.zip', 5],
  ] as const) {
    await page.getByRole('button', { name: new RegExp(`^Details of ${name.replace('.', '\\.')}`) }).click();
    await page.getByRole('button', { name: 'Open viewer' }).click();
    await expect(page.getByTestId('volume-readout')).toContainText('Voxel', { timeout: 60_000 });
    await expect(page.getByLabel(/Axial slice/), name).toHaveAttribute('max', String(slices - 1));
    expect(drawnFraction(await pixelsOf(page.locator('canvas.vv-canvas'))), name).toBeGreaterThan(0.02);
    await page.getByRole('button', { name: 'Close', exact: true }).click();
  }
});
