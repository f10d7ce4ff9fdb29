import { existsSync, readFileSync } from 'node:fs';
import { decodeImage } from '../../server/imaging/decode-image.ts';
import { int16NiftiOf } from '../fixtures/nifti-writer.ts';
import { addPhaseGhosts, addRicianNoise, cleanPhantom } from '../fixtures/phantoms.ts';
import { signedInAccount, useSession } from './dashboard-session.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

const CT_SMALL = '/usr/lib/python3/dist-packages/pydicom/data/test_files/CT_small.dcm';

test.skip(!existsSync(CT_SMALL), 'needs pydicom’s test files (Debian’s python3-pydicom)');

test('a CT converted to NIfTI is checked as CT, and ghosts of a head along one axis are named', async ({
  page,
  request,
}) => {
  await useSession(page, await signedInAccount(request, 'Peter Mansfield'));
  await page.goto('/dashboard/images');
  // pydicom's CT_small as dcm2niix converts it: Hounsfield units in a NIfTI, which names no modality.
  const ct = await decodeImage(new Uint8Array(readFileSync(CT_SMALL)), '.dcm');
  const ctNifti = int16NiftiOf(ct, { gzip: true });
  // A head whose k-space lost a share of every fifth line along x: faint copies of it beside it, left and right.
  const head = addRicianNoise(cleanPhantom({ size: 192, foreground: 800, inner: 500, background: 0 }), 20, 4);
  const ghosts = addPhaseGhosts(head, 'x', 5, 0.8);
  const ghostNifti = int16NiftiOf({ width: 192, height: 192, depth: 1, data: ghosts.values });
  await page.getByLabel('Choose images to upload').setInputFiles([
    { name: 'chest-ct.nii.gz', mimeType: 'application/gzip', buffer: Buffer.from(ctNifti) },
    { name: 'ghosts.nii', mimeType: 'application/octet-stream', buffer: Buffer.from(ghostNifti) },
  ]);

  await page.getByRole('button', { name: 'Details of chest-ct.nii.gz' }).click({ timeout: 30_000 });
  const ctDetails = page.getByRole('dialog', { name: 'chest-ct.nii.gz' });
  await ctDetails.getByRole('button', { name: 'Check Quality Control' }).click();
  await expect(ctDetails.getByText(/^QC verdict: Pass \(CT, 128×128×1\)\./)).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Details of ghosts.nii' }).click();
  const mrDetails = page.getByRole('dialog', { name: 'ghosts.nii' });
  await mrDetails.getByRole('button', { name: 'Check Quality Control' }).click();
  await expect(mrDetails.getByText(/^QC verdict: (Review|Fail) \(MR, 192×192×1\)\./)).toBeVisible();
  await expect(mrDetails.getByText(/Ghosts beside the head along the phase-encoding direction/).first()).toBeVisible();
  await expectAccessible(page);
});
