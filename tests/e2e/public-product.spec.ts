import report from '../../src/assets/product/sample-qc-report.json' with { type: 'json' };
import { expect, test } from './fixtures.ts';

test('the hero shows a screenshot of the product, optimised, sized and loaded first', async ({ page }) => {
  await page.goto('/');
  const hero = page.locator('section.hero');
  const image = hero.getByRole('img', { name: /My Images page of the dashboard/ });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  await expect(image).toHaveAttribute('loading', 'eager');
  for (const attribute of ['width', 'height']) await expect(image).toHaveAttribute(attribute, /^\d+$/);
  const picture = hero.locator('picture');
  await expect(picture.locator('source[type="image/avif"]')).toHaveAttribute('srcset', /\.avif \d+w/);
  await expect(picture.locator('source[type="image/webp"]')).toHaveAttribute('srcset', /\.webp \d+w/);
  // The browser picked AVIF, the smallest format it reads.
  expect(await image.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\.avif$/);
});

test('the screenshots below the fold load lazily, and the sample QC report is the engine output, readable', async ({
  page,
}) => {
  await page.goto('/');
  const tour = page.getByRole('region', { name: 'See a check from start to finish' });
  const shots = tour.getByRole('img');
  await expect(shots).toHaveCount(2);
  for (const shot of await shots.all()) {
    await expect(shot).toHaveAttribute('loading', 'lazy');
    await expect(shot).toHaveAttribute('width', /^\d+$/);
  }
  await tour.scrollIntoViewIfNeeded();
  const sample = tour.getByRole('figure', { name: 'Sample QC report' });
  await expect(sample).toBeVisible();
  await expect(sample.getByText(report.model)).toBeVisible();
  for (const line of report.summary.split('\n')) await expect(sample.locator('pre')).toContainText(line);
  await expect(sample.getByRole('row', { name: /^SNR/ })).toContainText(report.qc.metrics.snr.toFixed(1));
  await expect(shots.first()).toBeVisible();
  await expect
    .poll(() => shots.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
});

for (const path of ['/ai-medical-image-qc-models', '/multi-modal-medical-image-support', '/cross-border-collaboration'])
  test(`${path} shows a screenshot of the running product`, async ({ page }) => {
    await page.goto(path);
    const shot = page.locator('figure.product-shot img');
    await expect(shot).toHaveCount(1);
    await expect(shot).toHaveAttribute('alt', /.{40,}/);
    await shot.scrollIntoViewIfNeeded();
    await expect
      .poll(() => shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  });
