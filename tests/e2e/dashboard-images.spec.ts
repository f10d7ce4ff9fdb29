import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures.ts';
import {
  apiUpload,
  largePngLike,
  niftiGzFile,
  pngFile,
  signedInAccount,
  useSession,
  type SignedInAccount,
} from './dashboard-session.ts';

/** Slows this page's uploads down so a progress bar can be watched (Chromium's network emulation). */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

async function dropFiles(page: Page, files: { name: string; base64: string; type: string }[]) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const file of list) {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name, { type: file.type }));
    }
    return transfer;
  }, files);
  await page.dispatchEvent('[data-testid="dropzone"]', 'dragover', { dataTransfer });
  await page.dispatchEvent('[data-testid="dropzone"]', 'drop', { dataTransfer });
}

test.describe('My Images', () => {
  let account: SignedInAccount;
  test.beforeEach(async ({ request }) => {
    account = await signedInAccount(request);
  });

  test('uploads through the button with a progress bar, then lists the card', async ({ page, consoleErrors }) => {
    await useSession(page, account);
    await page.goto('/dashboard/images');
    await expect(page.getByRole('heading', { name: 'My Images' })).toBeVisible();
    await expect(page.getByText('No images found.')).toBeVisible();
    await expectAccessible(page);

    await throttleUploads(page, 1024 * 1024);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload Image' }).click();
    await (await chooser).setFiles({ name: 'Large scan.png', mimeType: 'image/png', buffer: largePngLike(3) });

    await expect(page.getByText('Uploading...')).toBeVisible();
    const bar = page.getByRole('progressbar', { name: 'Upload of Large scan.png' });
    await expect(bar).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel upload of Large scan.png' })).toBeVisible();
    await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 10_000 }).toBeGreaterThan(0);
    // Bar and percentage read in one go: the upload moves on between two separate reads.
    const job = page.locator('.dash-job').filter({ hasText: 'Large scan.png' });
    const midway = await job.evaluate((li) => ({
      value: li.querySelector('progress')!.value,
      text: li.querySelector('.dash-job-percent')!.textContent,
    }));
    expect(midway.value).toBeLessThan(100);
    expect(midway.text).toBe(`${midway.value}%`);
    await expect(job.locator('.dash-job-percent')).toBeVisible();
    await expectAccessible(page);

    await expect(page.getByText('Uploading...')).toBeHidden({ timeout: 20_000 });
    await expect(page.locator('.dash-job.done')).toContainText('100%');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Large scan.png' }) });
    await expect(card).toBeVisible();
    await expect(card).toContainText('3.00 MB');
    await expect(card).toContainText(/\ds ago/);
    await expect(card.getByText('Uploaded', { exact: true })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('cancels a running upload: nothing is listed', async ({ page }) => {
    await useSession(page, account);
    await page.goto('/dashboard/images');
    await throttleUploads(page, 256 * 1024);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload Image' }).click();
    await (await chooser).setFiles({ name: 'slow.png', mimeType: 'image/png', buffer: largePngLike(4) });
    await page.getByRole('button', { name: 'Cancel upload of slow.png' }).click();
    await expect(page.locator('.dash-job.cancelled')).toContainText('Cancelled');
    await expect(page.getByText('No images found.')).toBeVisible();
  });

  test("a large file refused on its first bytes shows the server's detail, not a network error", async ({ page }) => {
    await useSession(page, account);
    await page.goto('/dashboard/images');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload Image' }).click();
    const executable = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(12 * 1024 * 1024)]);
    await (await chooser).setFiles({ name: 'fake.png', mimeType: 'image/png', buffer: executable });
    const failed = page.locator('.dash-job.failed');
    await expect(failed.getByRole('alert')).toHaveText('The content of this file does not match its .png extension', {
      timeout: 20_000,
    });
    await expect(page.getByText('Uploading...')).toBeHidden();
    await expect(page.getByText('No images found.')).toBeVisible();
  });

  test('uploads several files by drag and drop, refuses a bad one with its detail, and search filters', async ({
    page,
  }) => {
    await useSession(page, account);
    await page.goto('/dashboard/images');
    const png = (await pngFile()).toString('base64');
    await dropFiles(page, [
      { name: 'Knee left.png', base64: png, type: 'image/png' },
      { name: 'Brain.nii.gz', base64: niftiGzFile().toString('base64'), type: 'application/gzip' },
      { name: 'notes.exe', base64: Buffer.from('MZ').toString('base64'), type: 'application/octet-stream' },
    ]);
    await expect(page.getByRole('heading', { name: 'Knee left.png' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Brain.nii.gz' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'This file type is not supported' })).toBeVisible();
    await expectAccessible(page);

    const search = page.getByLabel('Search images');
    await search.fill('KNEE');
    await expect(page.getByRole('heading', { name: 'Knee left.png' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Brain.nii.gz' })).toBeHidden();
    await search.fill('nothing like it');
    await expect(page.getByText('No images found.')).toBeVisible();
    await search.fill('');
    await expect(page.getByRole('heading', { level: 2 })).toHaveCount(2);
  });

  test('details show a PNG preview, the no-preview text for .nii.gz, and keep focus inside', async ({
    page,
    request,
  }) => {
    await apiUpload(request, account, 'chest.png', await pngFile(48, 40));
    await apiUpload(request, account, 'head.nii.gz', niftiGzFile());
    await useSession(page, account);
    await page.goto('/dashboard/images');

    const details = page.getByRole('button', { name: 'Details of chest.png' });
    await details.click();
    const dialog = page.getByRole('dialog', { name: 'chest.png' });
    await expect(dialog).toBeVisible();
    const preview = dialog.getByRole('img', { name: 'Preview of chest.png' });
    await expect(preview).toBeVisible();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);
    await expect(dialog.getByText('.png', { exact: true })).toBeVisible();
    await expectAccessible(page);
    // Tab never leaves the dialog.
    for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(details).toBeFocused();

    await page.getByRole('button', { name: 'Details of head.nii.gz' }).click();
    const second = page.getByRole('dialog', { name: 'head.nii.gz' });
    await expect(second.getByText('No preview for this file type.')).toBeVisible();
    await second.getByRole('button', { name: 'Close' }).click();
    await expect(second).toBeHidden();
    await page.getByRole('button', { name: 'Details of head.nii.gz' }).click();
    await page.getByTestId('details-backdrop').click({ position: { x: 5, y: 5 } });
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  test('a comment is saved on the server, listed newest first, cached in the browser, and the box cleared', async ({
    page,
    request,
  }) => {
    await apiUpload(request, account, 'wrist.png', await pngFile());
    await useSession(page, account);
    await page.goto('/dashboard/images');
    await page.getByRole('button', { name: 'Details of wrist.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'wrist.png' });
    const box = dialog.getByLabel('Add a comment');
    const save = dialog.getByRole('button', { name: 'Save' });
    const clear = dialog.getByRole('button', { name: 'Clear' });
    await expect(save).toBeDisabled();
    await expect(clear).toBeDisabled();
    await box.fill('   ');
    await expect(save).toBeDisabled();
    await expect(clear).toBeEnabled();
    await clear.click();
    await expect(box).toHaveValue('');

    await box.fill('Slight motion at the edge');
    await save.click();
    await expect(box).toHaveValue('');
    await box.fill('Repeat with a shorter exposure');
    await save.click();
    const list = dialog.getByRole('list', { name: 'Comments, newest first' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list.getByRole('listitem').first()).toContainText('Repeat with a shorter exposure');
    await expect(list.getByRole('listitem').nth(1)).toContainText('Slight motion at the edge');
    expect(await list.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('200px');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('image_comments_v1') ?? '{}'));
    expect(Object.values(stored)[0]).toHaveLength(2);
    // The browser keeps the server's copy: each comment has the id the server gave it.
    expect((Object.values(stored)[0] as { id?: string }[]).every((c) => typeof c.id === 'string')).toBe(true);
    await expectAccessible(page);

    await page.reload();
    await page.getByRole('button', { name: 'Details of wrist.png' }).click();
    await expect(page.getByRole('list', { name: 'Comments, newest first' }).getByRole('listitem')).toHaveCount(2);
  });

  test('Check Quality Control shows the result and adds it to the comments with [QC]', async ({ page, request }) => {
    await apiUpload(request, account, 'phantom.png', await pngFile(64, 64));
    await useSession(page, account);
    await page.goto('/dashboard/images');
    await page.getByRole('button', { name: 'Details of phantom.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'phantom.png' });
    await dialog.getByRole('button', { name: 'Check Quality Control' }).click();
    const result = dialog.locator('.dash-qc-text');
    await expect(result).not.toBeEmpty({ timeout: 15_000 });
    const text = (await result.textContent())!;
    const newest = dialog.getByRole('list', { name: 'Comments, newest first' }).getByRole('listitem').first();
    await expect(newest).toContainText(`[QC] ${text.slice(0, 40)}`);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Overview' }).click();
    const analyzed = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Analyzed Images' }) });
    await expect(analyzed).toContainText('1');
    await expect(page.getByText(/Quality check \((pass|review|fail)\) of phantom\.png/)).toBeVisible();
  });

  test('Delete asks for confirmation, then removes the image', async ({ page, request }) => {
    await apiUpload(request, account, 'keep.png', await pngFile());
    await apiUpload(request, account, 'remove.png', await pngFile());
    await useSession(page, account);
    await page.goto('/dashboard/images');
    await page.getByRole('button', { name: 'Delete remove.png' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm deleting remove.png' });
    await expect(confirm.getByRole('button', { name: 'Yes, delete' })).toBeFocused();
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await expect(page.getByRole('heading', { name: 'remove.png' })).toBeVisible();
    await page.getByRole('button', { name: 'Delete remove.png' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(page.getByRole('heading', { name: 'remove.png' })).toBeHidden();
    await expect(page.getByRole('heading', { name: 'keep.png' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'keep.png' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'remove.png' })).toBeHidden();
  });

  test("Copy URL's link opens the image in a fresh browser without signing in", async ({ page, request, browser }) => {
    const png = await pngFile(20, 20);
    await apiUpload(request, account, 'shared.png', png);
    await useSession(page, account);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/dashboard/images');
    await page.getByRole('button', { name: 'Details of shared.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'shared.png' });
    await dialog.getByRole('button', { name: 'Copy URL' }).click();
    await expect(dialog.getByText('Link copied. It works for 24 hours.')).toBeVisible();
    const link = await dialog.getByLabel('Share link').inputValue();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    const stranger = await browser.newContext();
    const fresh = await stranger.newPage();
    const response = await fresh.goto(link);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('image/png');
    expect((await response!.body()).equals(png)).toBe(true);
    await stranger.close();
  });
});
