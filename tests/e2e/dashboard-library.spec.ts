import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { expect, expectAccessible, test } from './fixtures.ts';
import { apiUpload, signedInAccount, useSession } from './dashboard-session.ts';

// Files written by scanners and toolkits, shipped with Debian's python3-pydicom.
const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
/** Enough cards for three pages of the grid and many screens of scrolling. */
const PICTURES = 240;

/** A small PNG of its own grey level, so each card's thumbnail differs. */
const picture = (i: number) =>
  sharp({ create: { width: 24, height: 16, channels: 3, background: { r: i % 256, g: 80, b: 160 } } })
    .png()
    .toBuffer();

test('My Images: a library of 243 images pages, scrolls virtualised and shows thumbnail, modality and verdict', async ({
  page,
  request,
  consoleErrors,
}) => {
  test.setTimeout(150_000);
  const account = await signedInAccount(request);
  const auth = { authorization: `Bearer ${account.token}` };
  for (let start = 0; start < PICTURES; start += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, PICTURES - start) }, async (_, k) =>
        apiUpload(request, account, `img-${String(start + k).padStart(3, '0')}.png`, await picture(start + k)),
      ),
    );
  }
  await apiUpload(request, account, 'report.dcm', readFileSync(`${PYDICOM}/test-SR.dcm`));
  await apiUpload(request, account, 'mr.dcm', readFileSync(`${PYDICOM}/MR_small.dcm`));
  const ct = await apiUpload(request, account, 'ct.dcm', readFileSync(`${PYDICOM}/CT_small.dcm`));
  const check = await request.post('/api/v1/llm/generate-messages', {
    headers: auth,
    data: {
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: `/api/v1/uploads/${ct.stored_filename}` } }] },
      ],
    },
  });
  expect(check.status()).toBe(200);
  const verdict = ((await check.json()) as { qc: { verdict: 'pass' | 'review' | 'fail' } }).qc.verdict;
  const ctName = (
    (await (await request.get('/api/v1/uploads?limit=1', { headers: auth })).json()) as {
      original_name_guess: string;
    }[]
  )[0]!.original_name_guess;

  await useSession(page, account);
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.goto('/dashboard/images');
  const grid = page.getByRole('list', { name: 'Images' });
  const cards = grid.getByRole('listitem');

  // The newest card: its CT thumbnail drawn by the server, its modality, and the verdict of its check.
  const ctCard = cards.filter({ has: page.getByRole('heading', { name: ctName }) });
  await expect(ctCard.getByText('Uploaded', { exact: true })).toBeVisible();
  await expect(ctCard.locator('.dash-card-thumb img')).toHaveJSProperty('complete', true);
  expect(
    await ctCard.locator('.dash-card-thumb img').evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(32);
  await expect(ctCard.getByText('Modality CT')).toBeVisible();
  const label = { pass: 'QC Pass', review: 'QC Review', fail: 'QC Fail' }[verdict];
  await expect(ctCard.getByText(label)).toBeVisible();
  // The report has no picture: its card says so, with its modality, and no request failed.
  const report = cards.filter({ hasText: 'Modality SR' });
  await expect(report.getByText('No preview')).toBeVisible();
  await expect(cards.filter({ hasText: 'Modality MR' }).getByText('Not checked')).toBeVisible();
  await expectAccessible(page);

  // Only the cards near the screen exist, whatever the library's size.
  const firstCount = await cards.count();
  expect(firstCount).toBeGreaterThan(8);
  expect(firstCount).toBeLessThan(60);
  await expect(cards.first()).toHaveAttribute('aria-posinset', '1');
  await expect(cards.first()).toHaveAttribute('aria-setsize', '-1');

  // Scrolling to the end loads the further pages; the oldest image is reached and drawn.
  const oldest = cards.filter({ has: page.getByRole('heading', { name: 'img-000.png' }) });
  for (let i = 0; i < 40 && !(await oldest.count()); i++) {
    await page.mouse.wheel(0, 2500);
    await page.waitForTimeout(100);
  }
  await expect(oldest).toBeVisible();
  // Uploads sent eight at a time may share their moment, so the oldest is among the last eight.
  expect(Number(await oldest.getAttribute('aria-posinset'))).toBeGreaterThan(PICTURES + 3 - 8);
  await expect(oldest).toHaveAttribute('aria-setsize', String(PICTURES + 3));
  await expect(cards.last()).toHaveAttribute('aria-posinset', String(PICTURES + 3));
  await expect(oldest.locator('.dash-card-thumb img')).toHaveJSProperty('complete', true);
  expect(await cards.count()).toBeLessThan(60);
  await expectAccessible(page);

  // The keyboard walks from card to card in reading order, past the screen's edge.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: `Details of ${ctName}` }).focus();
  for (let i = 0; i < 40; i++) await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
  expect(focused).toMatch(/^(Details|Delete) of img-2[0-3]\d\.png$|^(Details of|Delete) img-2[0-3]\d\.png$/);
  await expect(page.locator(':focus')).toBeInViewport();

  // The search runs on the server over the whole library, not only the pages loaded.
  await page.getByLabel('Search images').fill('IMG-01');
  await expect(cards).toHaveCount(10);
  expect((await cards.getByRole('heading').allTextContents()).sort()).toEqual(
    Array.from({ length: 10 }, (_, i) => `img-01${i}.png`),
  );
  await page.getByLabel('Search images').fill('no such image');
  await expect(page.getByText('No images found.')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
