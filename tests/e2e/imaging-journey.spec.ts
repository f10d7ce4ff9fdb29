import { readFile } from 'node:fs/promises';
import { phantomDicom, phantomNifti } from '../fixtures/upload-images.ts';
import { apiUpload, signedInAccount, useSession } from './dashboard-session.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

test.describe('imaging and quality control in the browser', () => {
  test('a DICOM and a NIfTI are uploaded, previewed, described, checked, and analysed', async ({ page, request }) => {
    const account = await signedInAccount(request, 'Rosalind Franklin');
    await useSession(page, account);
    await page.goto('/dashboard/images');
    await page.getByLabel('Choose images to upload').setInputFiles([
      { name: 'head.dcm', mimeType: 'application/dicom', buffer: await phantomDicom() },
      { name: 'brain.nii.gz', mimeType: 'application/gzip', buffer: phantomNifti() },
    ]);
    // The DICOM keeps the name it was sent with: nothing in "head.dcm" is one of the file's identifying values.
    const mrName = 'Details of head.dcm';
    await expect(page.getByRole('button', { name: mrName })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Details of brain.nii.gz' })).toBeVisible();

    // DICOM: a server-rendered preview, its decoded metadata (de-identified on arrival), and the check.
    await page.getByRole('button', { name: mrName }).click();
    const dicom = page.getByRole('dialog', { name: 'head.dcm' });
    const preview = dicom.getByRole('img', { name: 'Preview of head.dcm, axial slice 1 of 1' });
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(128);
    const metadata = dicom.getByTestId('image-metadata');
    await expect(metadata.getByText('MR', { exact: true })).toBeVisible();
    await expect(metadata.getByText('128 × 128 × 1')).toBeVisible();
    await expect(metadata.getByText('De-identified')).toBeVisible();
    await expect(metadata.getByText('Yes', { exact: true })).toBeVisible();
    await expect(dicom.getByText('Not checked yet.')).toBeVisible();
    // The de-identification report: what the Basic Profile did to this file, attribute by attribute.
    const report = dicom.getByTestId('deidentification-report');
    await expect(report).toContainText('Basic Application Level Confidentiality Profile');
    await expect(report).toContainText('MR Image');
    await dicom.getByText(/^Emptied attributes \(\d+\)$/).click();
    await expect(dicom.getByText("(0010,0010) Patient's Name")).toBeVisible();
    await expectAccessible(page);
    await dicom.getByRole('button', { name: 'Check Quality Control' }).click();
    await expect(dicom.getByText(/^QC verdict: Pass \(MR, 128×128×1\)\./)).toBeVisible();
    await expect(dicom.getByText(/^\[QC\] QC verdict: Pass/)).toBeVisible();
    const history = dicom.getByRole('list', { name: 'Check history' });
    await expect(history.getByText('Pass')).toBeVisible();
    await expect(history).toContainText(/lumenqc-builtin-1\+qc-model-\d+\.[0-9a-f]{8}/);
    await dicom.getByRole('button', { name: 'Close' }).click();

    // NIfTI: the middle slice first, then any slice and plane from the slider.
    await page.getByRole('button', { name: 'Details of brain.nii.gz' }).click();
    const nifti = page.getByRole('dialog', { name: 'brain.nii.gz' });
    await expect(nifti.getByRole('img', { name: 'Preview of brain.nii.gz, axial slice 7 of 12' })).toBeVisible();
    const slider = nifti.getByRole('slider', { name: /Slice 7 of 12/ });
    await slider.focus();
    await page.keyboard.press('Home');
    await expect(nifti.getByRole('img', { name: 'Preview of brain.nii.gz, axial slice 1 of 12' })).toBeVisible();
    await nifti.getByLabel('Plane').selectOption('coronal');
    await expect(nifti.getByRole('img', { name: 'Preview of brain.nii.gz, coronal slice 21 of 40' })).toBeVisible();
    await expect(nifti.getByTestId('image-metadata').getByText('48 × 40 × 12')).toBeVisible();
    await expect(nifti.getByTestId('image-metadata').getByText('1 × 1 × 2.5 mm')).toBeVisible();
    await expectAccessible(page);
    await nifti.getByRole('button', { name: 'Close' }).click();

    // Analysis: both images checked, with real values, and a CSV of them.
    await page.getByRole('link', { name: 'Analysis' }).click();
    await expect(page.getByRole('heading', { name: 'Analysis', level: 1 })).toBeVisible();
    await page.getByLabel('Metric set').selectOption('SNR & CNR Measurement');
    await page.getByRole('button', { name: 'Run Analysis on 2 Images' }).click();
    await expect(page.getByText('Analysis complete: 2 images checked.')).toBeVisible();
    const table = page.getByRole('table');
    await expect(table.getByRole('columnheader', { name: 'SNR' })).toBeVisible();
    await expect(table.getByRole('row', { name: /head\.dcm Pass \d+ \d+\.\d/ })).toBeVisible();
    await expect(table.getByRole('row', { name: /brain\.nii\.gz (Pass|Review|Fail) \d+/ })).toBeVisible();
    await expectAccessible(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toMatch(/^file,sha256,stored_filename,status,verdict,confidence \(0-100\),engine,/);
    expect(csv).toMatch(/\r\nhead\.dcm,[0-9a-f]{64},[^,]+,done,Pass,\d+,lumenqc-builtin-1\+qc-model-\d+\.[0-9a-f]{8},/);
    await page.getByLabel('Metric set').selectOption('Motion Blur Assessment');
    await expect(table.getByRole('columnheader', { name: 'Sharpness' })).toBeVisible();
    // On a phone the table scrolls sideways in a region reachable by keyboard.
    await page.setViewportSize({ width: 390, height: 800 });
    await expect(page.getByRole('region', { name: 'Results table' })).toBeVisible();
    await expectAccessible(page);
  });
});

test('a DICOM uploaded with "Keep patient data" is stored as sent, and says so', async ({ page, request }) => {
  const account = await signedInAccount(request, 'Keeper of Records');
  await useSession(page, account);
  await page.goto('/dashboard/images');
  const keep = page.getByLabel('Keep patient data in DICOM files (skip de-identification)');
  await expect(keep).not.toBeChecked();
  await keep.check();
  await page
    .getByLabel('Choose images to upload')
    .setInputFiles({ name: 'kept.dcm', mimeType: 'application/dicom', buffer: await phantomDicom() });
  // Kept as sent, it keeps its name, and the list says it is not de-identified.
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'kept.dcm' }) });
  await expect(card.getByText('Not de-identified')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Details of kept.dcm' }).click();
  const dialog = page.getByRole('dialog', { name: 'kept.dcm' });
  const metadata = dialog.getByTestId('image-metadata');
  await expect(metadata.getByText('De-identified')).toBeVisible();
  await expect(metadata.getByText('No', { exact: true })).toBeVisible();
  await expect(metadata.getByText('Brain phantom study')).toBeVisible();
});

test('a 16-bit TIFF, which browsers cannot show, is previewed by the server', async ({ page, request }) => {
  const sharp = (await import('sharp')).default;
  const { png16 } = await import('../fixtures/png16.ts');
  const grey = Uint16Array.from({ length: 64 * 48 }, (_, i) => (i % 64) * 1000);
  const tiff = await sharp(png16(64, 48, grey))
    .toColourspace('grey16')
    .tiff({ compression: 'lzw' })
    .toBuffer();
  const account = await signedInAccount(request, 'Tiff Reader');
  await apiUpload(request, account, 'plate.tiff', tiff);
  await useSession(page, account);
  await page.goto('/dashboard/images');
  await page.getByRole('button', { name: 'Details of plate.tiff' }).click();
  const preview = page
    .getByRole('dialog', { name: 'plate.tiff' })
    .getByRole('img', { name: /^Preview of plate\.tiff/ });
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
  await expect(page.getByTestId('image-metadata').getByText('16-bit')).toBeVisible();
});
