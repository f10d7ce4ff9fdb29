import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readWithPydicom, sampleAt } from '../fixtures/pydicom-pixels.ts';
import { signedInAccount, useSession } from './dashboard-session.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

test.skip(!existsSync(PYDICOM), "needs Debian's python3-pydicom for its test files");

test('a region drawn with the keyboard is blanked in the de-identified download, then the image confirmed clean', async ({
  page,
  request,
}) => {
  // pydicom's MR_small.dcm, compressed by dcmtk (RLE Lossless): the server decodes it to blank it.
  const dir = mkdtempSync(path.join(tmpdir(), 'lumenqc-blanking-'));
  const compressed = path.join(dir, 'mr-rle.dcm');
  execFileSync('dcmcrle', [path.join(PYDICOM, 'MR_small.dcm'), compressed]);
  // Marked as carrying burned-in text: flagged until a member blanks it by hand and confirms none remains.
  execFileSync('dcmodify', ['-nb', '-i', '(0028,0301)=YES', compressed]);
  const account = await signedInAccount(request, 'Ada Lovelace');
  await useSession(page, account);
  await page.goto('/dashboard/images');
  await page
    .getByLabel('Choose images to upload')
    // Sent under its patient's name and ID (CompressedSamples^MR1, 4MR1): every token goes, so it is named
    // from its de-identified modality, series and instance.
    .setInputFiles([
      { name: 'CompressedSamples_MR1_4MR1.dcm', mimeType: 'application/dicom', buffer: readFileSync(compressed) },
    ]);
  const card = page.getByRole('button', { name: /^Details of MR_S\d{4}_I\d{4}_[0-9a-f]{8}\.dcm$/ });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Not de-identified')).toBeVisible();
  await card.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('deidentification-report')).toContainText('Regions blanked by hand');

  // Keyboard only: add a region, move it three pixels right, make it two pixels taller.
  const add = dialog.getByRole('button', { name: 'Add a region' });
  await add.focus();
  await page.keyboard.press('Enter');
  const frame = dialog.getByRole('group', { name: /^First frame, 64 × 64 pixels: 1 region drawn$/ });
  await expect(frame).toBeFocused();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  const region = dialog.getByRole('group', { name: 'Region 1' });
  await expect(region.getByLabel('Left')).toHaveValue('29');
  await expect(region.getByLabel('Top')).toHaveValue('26');
  await expect(region.getByLabel('Width')).toHaveValue('13');
  await expect(region.getByLabel('Height')).toHaveValue('15');
  await expect(dialog.getByRole('button', { name: 'Remove region 1' })).toBeVisible();
  await expectAccessible(page);

  // A second region, drawn with the mouse from a quarter to a half of the frame, then removed again.
  const box = (await frame.boundingBox())!;
  await page.mouse.move(box.x + box.width / 4, box.y + box.height / 4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const drawn = dialog.getByRole('group', { name: 'Region 2' });
  await expect(drawn.getByLabel('Left')).toHaveValue(/^1[5-7]$/);
  await expect(drawn.getByLabel('Width')).toHaveValue(/^1[5-7]$/);
  await dialog.getByRole('button', { name: 'Remove region 2' }).click();
  // A click without a drag adds nothing.
  await page.mouse.click(box.x + box.width / 8, box.y + box.height / 8);
  await expect(frame).toHaveAccessibleName('First frame, 64 × 64 pixels: 1 region drawn');
  await expect(dialog.getByRole('group', { name: 'Region 2' })).toHaveCount(0);

  // The preview's grey at the region's centre, before and after: the modal shows the blanked pixels at once.
  const preview = dialog.getByRole('img', { name: /^Preview of / });
  const centreGrey = () =>
    preview.evaluate((img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const at = (v: number) => Math.floor((v / 64) * img.naturalWidth);
      return context.getImageData(at(35), at(33), 1, 1).data[0];
    });
  const before = await centreGrey();
  await dialog.getByRole('button', { name: 'Blank 1 region' }).click();
  await expect(dialog.getByText('1 region blanked in every frame.')).toBeVisible({ timeout: 30_000 });
  await dialog.getByText('Regions blanked by hand (1)').click();
  await expect(dialog.getByTestId('blanked-regions')).toContainText('Left 29, top 26, 13 × 15 pixels, in every frame');
  await expect(dialog.getByText('Decompressed to be blanked (stored as Explicit VR Little Endian)')).toBeVisible();
  // Stored 0 under the file's window (centre 600, width 1600) is grey 32, whatever it was before.
  await expect.poll(centreGrey, { timeout: 15_000 }).toBeGreaterThanOrEqual(30);
  await expect.poll(centreGrey, { timeout: 15_000 }).toBeLessThanOrEqual(34);
  expect(before).toBeGreaterThan(60);
  await expectAccessible(page);

  // Blanking alone leaves the image flagged; the member confirms, deliberately, that no text remains.
  const confirm = dialog.getByRole('button', { name: 'Confirm de-identified' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('No other burned-in text remains in any frame of this image').check();
  await confirm.click();
  await expect(dialog.getByTestId('deidentification-report')).toContainText(
    /Confirmed free of burned-in text\s*By Ada Lovelace \(.+\); Burned In Annotation set to NO/,
  );
  await expect(confirm).toHaveCount(0);
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(card).toBeVisible();
  await expect(page.getByText('Not de-identified')).toHaveCount(0);
  await expectAccessible(page);

  // The de-identified download: black inside the region, every other sample as in pydicom's original.
  const stored = await page.evaluate(async () => {
    const token = localStorage.getItem('token');
    const list = (await (await fetch('/api/v1/uploads', { headers: { authorization: `Bearer ${token}` } })).json()) as {
      stored_filename: string;
    }[];
    return list[0]!.stored_filename;
  });
  const download = await request.get(`/api/v1/uploads/${stored}`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  expect(download.status()).toBe(200);
  const file = path.join(dir, 'download.dcm');
  writeFileSync(file, await download.body());
  const annotation = spawnSync(
    '/usr/bin/python3',
    ['-c', 'import sys, pydicom; print(pydicom.dcmread(sys.argv[1]).BurnedInAnnotation)', file],
    { encoding: 'utf8' },
  );
  expect(annotation.stdout.trim()).toBe('NO');
  const out = readWithPydicom(file);
  const original = readWithPydicom(path.join(PYDICOM, 'MR_small.dcm'));
  expect(out.transferSyntax).toBe('1.2.840.10008.1.2.1');
  let blanked = 0;
  for (let y = 0; y < 64; y++)
    for (let x = 0; x < 64; x++) {
      const inside = x >= 29 && x < 42 && y >= 26 && y < 41;
      if (inside) {
        expect(sampleAt(out, 0, x, y)).toBe(0);
        blanked++;
      } else if (sampleAt(out, 0, x, y) !== sampleAt(original, 0, x, y)) {
        expect.fail(`(${x}, ${y}) changed outside the region`);
      }
    }
  expect(blanked).toBe(13 * 15);
});
