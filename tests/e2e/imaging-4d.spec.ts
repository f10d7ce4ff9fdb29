import { readFile } from 'node:fs/promises';
import { signedInAccount, useSession } from './dashboard-session.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { changedFraction, decodePng } from './viewers-helpers.ts';

test('a 4D NIfTI says so and its preview offers a volume selector', async ({ page, request }) => {
  await useSession(page, await signedInAccount(request, 'Seiji Ogawa'));
  await page.goto('/dashboard/images');
  // nibabel's 4D test file: 128 x 96 x 24 voxels at 2 time points.
  await page.getByLabel('Choose images to upload').setInputFiles({
    name: 'fmri.nii.gz',
    mimeType: 'application/gzip',
    buffer: await readFile('/usr/lib/python3/dist-packages/nibabel/tests/data/example4d.nii.gz'),
  });
  await page.getByRole('button', { name: 'Details of fmri.nii.gz' }).click();
  const details = page.getByRole('dialog', { name: 'fmri.nii.gz' });
  await expect(details.getByTestId('image-metadata').getByText('2 time points')).toBeVisible({ timeout: 30_000 });
  await expect(
    details.getByRole('img', { name: /^Preview of fmri\.nii\.gz, volume 1 of 2, axial slice/ }),
  ).toBeVisible();
  const volume = details.getByRole('slider', { name: /Volume 1 of 2/ });
  await volume.focus();
  await page.keyboard.press('End');
  await expect(
    details.getByRole('img', { name: /^Preview of fmri\.nii\.gz, volume 2 of 2, axial slice/ }),
  ).toBeVisible();
  await expect(details.getByRole('slider', { name: /Volume 2 of 2/ })).toBeVisible();
  await expectAccessible(page);

  // The volume viewer steps through the time points too.
  await details.getByRole('button', { name: 'Open viewer' }).click();
  await expect(page.getByTestId('volume-readout')).toContainText('Voxel', { timeout: 60_000 });
  const viewer = page.locator('section.vv');
  const frames = viewer.getByRole('slider', { name: /^Volume 1 of 2/ });
  await expect(frames).toHaveAttribute('max', '1');
  const canvas = page.locator('canvas.vv-canvas');
  const before = await decodePng(await canvas.screenshot());
  // The two time points differ by about one grey level in most voxels: a few pixels change, not none.
  await frames.focus();
  await page.keyboard.press('End');
  await expect(viewer.getByRole('slider', { name: /^Volume 2 of 2/ })).toBeVisible();
  await expect
    .poll(async () => changedFraction(before, await decodePng(await canvas.screenshot())))
    .toBeGreaterThan(0.001);
  await expectAccessible(page);
});
