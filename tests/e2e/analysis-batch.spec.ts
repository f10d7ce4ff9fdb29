import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { makeDicomImage } from '../fixtures/dicom-fixtures.ts';
import { addRicianNoise, cleanPhantom, toUint16 } from '../fixtures/phantoms.ts';
import { phantomDicom } from '../fixtures/upload-images.ts';
import type { APIRequestContext } from '@playwright/test';
import { apiUpload, signedInAccount, useSession, type SignedInAccount } from './dashboard-session.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

/** Uploads a DICOM kept as sent (?deidentify=false), so it keeps the name the test chooses it by. */
async function uploadKeepingName(request: APIRequestContext, account: SignedInAccount, name: string, buffer: Buffer) {
  const res = await request.post('/api/v1/uploads?deidentify=false', {
    headers: { authorization: `Bearer ${account.token}` },
    multipart: { file: { name, mimeType: 'application/dicom', buffer } },
  });
  if (res.status() !== 201) throw new Error(`upload answered ${res.status()}: ${await res.text()}`);
  return (await res.json()) as { stored_filename: string };
}

/** Splits one CSV line (RFC 4180 quoting) into its cells. */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  return [...out, cell];
}

test.describe('the Analysis page checks chosen images as one batch', () => {
  test('choose images, run the batch with its progress bar, read the table, export the CSV', async ({
    page,
    request,
  }) => {
    const account = await signedInAccount(request, 'Godfrey Hounsfield');
    const stored: Record<string, string> = {};
    for (let i = 1; i <= 4; i++)
      stored[`knee-${i}.dcm`] = (
        await uploadKeepingName(request, account, `knee-${i}.dcm`, await phantomDicom())
      ).stored_filename;
    stored['knee-blurred.dcm'] = (
      await uploadKeepingName(request, account, 'knee-blurred.dcm', await phantomDicom({ degraded: true }))
    ).stored_filename;
    stored['head.dcm'] = (await uploadKeepingName(request, account, 'head.dcm', await phantomDicom())).stored_filename;
    await useSession(page, account);
    await page.goto('/dashboard/analysis');
    await expect(page.getByRole('heading', { name: 'Analysis', level: 1 })).toBeVisible();

    // Every image is listed and chosen at first; select-all clears them, the search narrows the list.
    const list = page.getByRole('list', { name: 'Your images' });
    await expect(list.getByRole('checkbox')).toHaveCount(6);
    await expect(page.getByText('6 of 6 selected')).toBeVisible();
    await page.getByLabel('Select all (6 shown)').uncheck();
    await expect(page.getByText('0 of 6 selected')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Run Analysis', exact: true })).toBeDisabled();
    await page.getByLabel('Search images').fill('KNEE');
    await expect(list.getByRole('checkbox')).toHaveCount(5);
    await page.getByLabel('Select all (5 shown)').check();
    await list.getByLabel('knee-4.dcm').uncheck();
    await expect(page.getByText('4 of 6 selected')).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Run Analysis on 4 Images' }).click();
    const bar = page.getByRole('progressbar', { name: 'Batch check progress' });
    await expect(bar).toHaveAttribute('aria-valuemax', '4');
    await expect(bar).toHaveAttribute('aria-valuenow', '4');
    await expect(bar).toHaveAttribute('aria-valuetext', '4 of 4 images checked');
    await expect(page.getByText('Analysis complete: 4 images checked.')).toBeVisible();

    const table = page.getByRole('table');
    await expect(table.getByRole('row')).toHaveCount(5);
    await expect(table.getByRole('row', { name: /^knee-1\.dcm Pass \d+/ })).toBeVisible();
    await expect(table.getByRole('row', { name: /^knee-blurred\.dcm Fail \d+/ })).toBeVisible();
    await expect(table.getByRole('row', { name: /knee-4\.dcm/ })).toHaveCount(0);
    await expect(table.getByRole('row', { name: /head\.dcm/ })).toHaveCount(0);
    await page.getByLabel('Metric set').selectOption('SNR & CNR Measurement');
    await expect(table.getByRole('columnheader', { name: 'SNR' })).toBeVisible();
    await expect(table.getByRole('row', { name: /^knee-2\.dcm Pass \d+ \d+\.\d \d+\.\d/ })).toBeVisible();
    await expectAccessible(page);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^lumenqc-batch-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await download.path())!, 'utf8')).split('\r\n').filter(Boolean);
    const head = cells(lines[0]!);
    for (const column of ['sha256', 'engine', 'checked_at (ISO 8601 UTC)', 'snr (ratio)', 'width (px)'])
      expect(head).toContain(column);
    expect(lines).toHaveLength(5);
    const rows = lines.slice(1).map((line) => Object.fromEntries(cells(line).map((v, i) => [head[i]!, v])));
    expect(rows.map((r) => r.file).sort()).toEqual(['knee-1.dcm', 'knee-2.dcm', 'knee-3.dcm', 'knee-blurred.dcm']);
    for (const row of rows) {
      // The hash is of the file as stored (de-identified), read back here through the API.
      const bytes = await request.get(`/api/v1/uploads/${stored[row.file!]}`, {
        headers: { authorization: `Bearer ${account.token}` },
      });
      expect(row.sha256).toBe(
        createHash('sha256')
          .update(await bytes.body())
          .digest('hex'),
      );
      expect(row).toMatchObject({
        status: 'done',
        engine: expect.stringMatching(/^lumenqc-builtin-1\+qc-model-\d+\.[0-9a-f]{8}$/),
        modality: 'MR',
        'width (px)': '128',
      });
      expect(Date.parse(row['checked_at (ISO 8601 UTC)']!)).toBeGreaterThan(Date.now() - 10 * 60_000);
      expect(Number(row['snr (ratio)'])).toBeGreaterThan(0);
      expect(row.verdict).toBe(row.file === 'knee-blurred.dcm' ? 'Fail' : 'Pass');
    }
  });

  test('a running batch can be cancelled, and is shown again after a reload', async ({ page, request }) => {
    // Enough images that the batch still runs when Cancel is pressed (the uploads take most of the time).
    test.setTimeout(180_000);
    const account = await signedInAccount(request, 'Allan Cormack');
    const noisy = addRicianNoise(cleanPhantom({ size: 512, inner: 800, background: 0 }), 20, 5);
    const slice = Buffer.from(
      await makeDicomImage({ width: 512, height: 512, samples: toUint16(noisy), bitsAllocated: 16 }),
    );
    const count = 150;
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < count) await apiUpload(request, account, `slice-${next++}.dcm`, slice);
      }),
    );
    await useSession(page, account);
    await page.goto('/dashboard/analysis');
    // Only the rows in view (and a few around them) are in the page, each knowing its place in the list.
    const list = page.getByRole('list', { name: 'Your images' });
    await expect(list.getByRole('listitem').first()).toHaveAttribute('aria-setsize', String(count));
    expect(await list.getByRole('checkbox').count()).toBeLessThan(40);
    await page.getByRole('region', { name: 'Image list' }).evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const last = list.locator(`li[aria-posinset="${count}"]`);
    await expect(last.getByRole('checkbox')).toBeChecked();
    await last.getByRole('checkbox').uncheck();
    await expect(page.getByText(`${count - 1} of ${count} selected`)).toBeVisible();
    await last.getByRole('checkbox').check();
    // Every image chosen is sent as the whole library, not as a list of every name.
    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/v1/qc/batches'));
    await page.getByRole('button', { name: `Run Analysis on ${count} Images` }).click();
    expect((await posted).postDataJSON()).toEqual({ scope: 'library' });
    await page.getByRole('button', { name: 'Cancel' }).click();
    const status = page.getByText(new RegExp(`^Analysis cancelled: (\\d+) of ${count} images checked\\.$`));
    await expect(status).toBeVisible();
    const checked = Number((await status.textContent())!.match(/: (\d+) of/)![1]);
    expect(checked).toBeLessThan(count);
    const bar = page.getByRole('progressbar', { name: 'Batch check progress' });
    await expect(bar).toHaveAttribute('aria-valuemax', String(count));
    // The images not reached say so in the table.
    await expect(
      page
        .getByRole('table')
        .getByRole('row', { name: /Not checked/ })
        .first(),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: `Run Analysis on ${count} Images` })).toBeEnabled();

    // The latest batch is what the page shows when it is opened again.
    await page.reload();
    await expect(status).toBeVisible();
    // The images in flight when it was cancelled may have finished since.
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(checked);
    await expectAccessible(page);
  });
});
