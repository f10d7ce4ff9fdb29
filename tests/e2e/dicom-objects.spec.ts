import { existsSync, readFileSync } from 'node:fs';
import { signedInAccount, useSession } from './dashboard-session.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

// Files written by a radiotherapy planning system and a scanner, as Debian's pydicom ships them.
const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

test.describe('DICOM objects from other toolkits in the browser', () => {
  test.skip(!existsSync(PYDICOM), "needs Debian's python3-pydicom for its test files");

  test('an RT Plan without pixels and an extensionless CR are stored, described and explained', async ({
    page,
    request,
  }) => {
    const account = await signedInAccount(request, 'Lise Meitner');
    await useSession(page, account);
    await page.goto('/dashboard/images');
    await page.getByLabel('Choose images to upload').setInputFiles([
      { name: 'rtplan.dcm', mimeType: 'application/dicom', buffer: readFileSync(`${PYDICOM}/rtplan.dcm`) },
      // Scanners write files without an extension; the content says DICOM.
      {
        name: '6154',
        mimeType: 'application/octet-stream',
        buffer: readFileSync(`${PYDICOM}/dicomdirtests/77654033/CR1/6154`),
      },
    ]);
    const plan = page.getByRole('button', { name: 'Details of rtplan.dcm' });
    const radiograph = page.getByRole('button', { name: 'Details of 6154' });
    await expect(plan).toBeVisible();
    await expect(radiograph).toBeVisible();

    // The plan has no image: the modal says so, and describes it by its SOP class and what it references.
    await plan.click();
    const dialog = page.getByRole('dialog', { name: 'rtplan.dcm' });
    await expect(dialog.getByTestId('no-preview-reason')).toHaveText(
      'No preview: This DICOM object (RT Plan, RTPLAN) holds no pixel data, so there is nothing to preview or check.',
    );
    const metadata = dialog.getByTestId('image-metadata');
    await expect(metadata.getByText('RT Plan', { exact: true })).toBeVisible();
    await expect(metadata).toContainText(/References.*RT Structure Set 2\.25\.\d+/);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The extensionless radiograph is previewed like any DICOM.
    await radiograph.click();
    const cr = page.getByRole('dialog', { name: '6154' });
    const preview = cr.getByRole('img', { name: /^Preview of 6154/ });
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(cr.getByTestId('image-metadata').getByText('16 × 16 × 1')).toBeVisible();
    await expectAccessible(page);
  });
});
