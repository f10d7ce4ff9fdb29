import { brand } from '../../contract/brand.ts';
import { expect, test } from './fixtures.ts';

const sections = ['mission', 'why-work', 'benefits', 'jobs', 'culture', 'apply'];

test('the careers page shows its badges, sections and benefits, with no framework loaded', async ({
  page,
  consoleErrors,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto('/careers');
  await expect(page.getByRole('heading', { level: 1, name: /Careers/ })).toBeVisible();
  for (const badge of ['3+ team members', '3 countries', '100% remote-friendly'])
    await expect(page.getByText(badge, { exact: true })).toBeVisible();
  for (const id of sections) await expect(page.locator(`section#${id}`)).toHaveCount(1);
  expect(await page.locator('#benefits li').count()).toBeGreaterThanOrEqual(3);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((url) => /react|client\.|island/i.test(url))).toEqual([]);
  await expect(page.locator('astro-island')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('quick navigation scrolls smoothly to a section 120 px below the top and updates the hash', async ({ page }) => {
  await page.goto('/careers');
  const nav = page.getByRole('navigation', { name: 'Quick navigation' });
  for (const id of sections) await expect(nav.locator(`a[href="#${id}"]`)).toHaveCount(1);
  await nav.getByRole('link', { name: 'Culture' }).click();
  await expect(page).toHaveURL(/\/careers#culture$/);
  await expect
    .poll(() => page.locator('#culture').evaluate((el) => Math.round(el.getBoundingClientRect().top)))
    .toBeCloseTo(120, -0.5);
});

test('one job is selected at a time, highlighted, with its detail panel and Apply Now mailto', async ({ page }) => {
  await page.goto('/careers#jobs');
  const cards = page.locator('[data-job-card]');
  expect(await cards.count()).toBeGreaterThanOrEqual(2);
  await expect(cards.nth(0)).toHaveClass(/selected/);
  const firstTitle = (await cards.nth(0).getByRole('heading').textContent())!.trim();
  const secondTitle = (await cards.nth(1).getByRole('heading').textContent())!.trim();
  await expect(page.getByRole('region', { name: firstTitle })).toBeVisible();

  // Keyboard: the card's button selects it.
  await cards.nth(1).getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(cards.nth(1)).toHaveClass(/selected/);
  await expect(cards.nth(0)).not.toHaveClass(/selected/);
  await expect(cards.nth(1).getByRole('button')).toHaveAttribute('aria-pressed', 'true');
  const detail = page.getByRole('region', { name: secondTitle });
  await expect(detail).toBeVisible();
  await expect(page.getByRole('region', { name: firstTitle })).toBeHidden();
  await expect(detail.getByRole('heading', { name: 'Requirements' })).toBeVisible();
  await expect(detail.getByRole('heading', { name: 'Responsibilities' })).toBeVisible();
  const apply = detail.getByRole('link', { name: 'Apply Now' });
  await expect(apply).toHaveAttribute(
    'href',
    `mailto:${brand.email}?subject=${encodeURIComponent(`Application: ${secondTitle}`)}`,
  );

  // Pointer: clicking anywhere on the first card selects it again.
  await cards.nth(0).locator('p').first().click();
  await expect(cards.nth(0)).toHaveClass(/selected/);
  await expect(page.getByRole('region', { name: firstTitle })).toBeVisible();
});
