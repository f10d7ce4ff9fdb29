import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { seriesFiles } from '../fixtures/dicom-series.ts';
import { signedInAccount, useSession } from './dashboard-session.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

const pydicomFiles = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

test('five unrelated DICOM files chosen together become five named cards; a series becomes one card', async ({
  page,
  request,
}) => {
  await useSession(page, await signedInAccount(request, 'Godfrey Hounsfield'));
  await page.goto('/dashboard/images');
  // Files written by scanners and toolkits (pydicom's test data): a CT, an MR, an RGB secondary capture,
  // a deflated image and an RT plan without pixels, each of its own series.
  const names = ['CT_small.dcm', 'MR_small.dcm', 'SC_rgb_rle.dcm', 'image_dfl.dcm', 'rtplan.dcm'];
  await page.getByLabel('Choose images to upload').setInputFiles(
    await Promise.all(
      names.map(async (name) => ({
        name,
        mimeType: 'application/dicom',
        buffer: await readFile(path.join(pydicomFiles, name)),
      })),
    ),
  );
  // Each named as it would be uploaded alone: names that repeat nothing identifying are kept, the deflated
  // file is named from its modality and a hash of its remapped SOP Instance UID; none is a zip of "slices".
  for (const name of [/^Details of CT_small\.dcm$/, /^Details of MR_small\.dcm$/, /^Details of SC_rgb_rle\.dcm$/])
    await expect(page.getByRole('button', { name })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /^Details of OT_[0-9a-f]{8}\.dcm$/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Details of rtplan\.dcm$/ })).toBeVisible();
  await expect(page.locator('.dash-image-card')).toHaveCount(5);
  await expect(page.locator('.dash-image-card', { hasText: /slices/ })).toHaveCount(0);

  // Five slices of one CT series, chosen together in a shuffled order: one card, named from the series.
  await page.getByLabel('Choose images to upload').setInputFiles(
    seriesFiles({ slices: 5, size: 16, seriesDescription: 'Head 5mm' }).map((f) => ({
      name: f.name,
      mimeType: 'application/dicom',
      buffer: Buffer.from(f.bytes),
    })),
  );
  await expect(page.locator('.dash-image-card')).toHaveCount(6, { timeout: 30_000 });
  // The Basic Profile removes Series Description, so a de-identified series is named by modality and count.
  const series = page.locator('.dash-image-card', { hasText: 'CT_5-slices.zip' });
  await expect(series).toContainText('5 slices');
  await expectAccessible(page);
});

test('a series that lost two slices on the way fails its quality check, and says why', async ({ page, request }) => {
  await useSession(page, await signedInAccount(request, 'Allan Cormack'));
  await page.goto('/dashboard/images');
  // Twelve slices of a CT series, the sixth and seventh lost (the files are named by their place in the stack).
  const kept = seriesFiles({ slices: 12, size: 64 }).filter((f) => !['IMG0006.dcm', 'IMG0007.dcm'].includes(f.name));
  await page
    .getByLabel('Choose images to upload')
    .setInputFiles(kept.map((f) => ({ name: f.name, mimeType: 'application/dicom', buffer: Buffer.from(f.bytes) })));
  await page.getByRole('button', { name: 'Details of CT_10-slices.zip' }).click({ timeout: 30_000 });
  const details = page.getByRole('dialog', { name: 'CT_10-slices.zip' });
  await details.getByRole('button', { name: 'Check Quality Control' }).click();
  await expect(details.getByText(/^QC verdict: Fail \(CT, 64×64×10\)\./)).toBeVisible();
  await expect(
    details.getByText(/Missing slices \(2 missing from the series, by its slice positions\)/).first(),
  ).toBeVisible();
  await expect(details.getByText(/Send the series again from the scanner or archive/).first()).toBeVisible();
  await expectAccessible(page);
});
