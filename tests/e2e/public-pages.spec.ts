import { brand } from '../../contract/brand.ts';
import { queryServerDatabase } from './public-database.ts';
import { expect, test } from './fixtures.ts';

const marketing = [
  { path: '/cross-border-collaboration', heading: /Cross-border collaboration/ },
  { path: '/ai-medical-image-qc-models', heading: /AI quality control models/ },
  { path: '/multi-modal-medical-image-support', heading: /Multi-modal medical image support/ },
];

for (const { path, heading } of marketing) {
  test(`${path} describes the feature, invites to register and gives the contact details`, async ({
    page,
    consoleErrors,
  }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register now' })).toHaveAttribute('href', '/register');
    await expect(page.getByRole('link', { name: 'Read the user guide' })).toHaveAttribute('href', '/user-guide');
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: brand.email })).toHaveAttribute('href', `mailto:${brand.email}`);
    await expect(main.getByRole('link', { name: brand.phone })).toBeVisible();
    expect(await main.locator('.card').count()).toBeGreaterThanOrEqual(3);
    await expect(page).toHaveTitle(new RegExp(`\\| ${brand.name}$`));
    await expect(page.locator('link[rel=canonical]')).toHaveAttribute('href', new RegExp(`${path}$`));
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /.+/);
    expect(consoleErrors).toEqual([]);
  });
}

const legal = [
  {
    path: '/privacy-policy',
    heading: 'Privacy Policy',
    texts: ['Controller', 'Processor', 'sub-processors', 'AES-256'],
  },
  { path: '/terms-of-service', heading: 'Terms of Service', texts: ['not for primary diagnosis', '99.9%'] },
  { path: '/gdpr', heading: 'GDPR', texts: ['controller', 'Article 9(2)(h)', 'TLS 1.2 or later', 'within 30 days'] },
];

for (const { path, heading, texts } of legal) {
  test(`${path} states the legal text with its last-updated date`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
    await expect(page.getByText(/^Last updated: \d{1,2} \w+ 20\d\d$/)).toBeVisible();
    for (const text of texts) await expect(page.getByRole('main').getByText(text).first()).toBeVisible();
    expect(await page.getByRole('main').getByRole('heading', { level: 2 }).count()).toBeGreaterThanOrEqual(6);
  });
}

test('an unknown address answers 404 with the site page and links back home', async ({ page }) => {
  const response = await page.goto('/no-such-page-here');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  await expect(page.locator('meta[name=robots]')).toHaveAttribute('content', 'noindex');
});

test('robots.txt and the sitemap list the public pages and keep the dashboard out', async ({ request }) => {
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Disallow: /dashboard');
  expect(robots).toMatch(/Sitemap: https?:\/\/.+\/sitemap-index\.xml/);
  const sitemap = await (await request.get('/sitemap-0.xml')).text();
  for (const path of ['/careers', '/user-guide', '/gdpr', '/cross-border-collaboration'])
    expect(sitemap).toContain(`${path}</loc>`);
  expect(sitemap).not.toContain('/dashboard');
  expect(sitemap).not.toContain('/404');
});

test('every page view is reported with its path and referrer, and stored without IP', async ({ page }) => {
  const beacon = page.waitForRequest((r) => r.url().endsWith('/api/v1/analytics/page-views'));
  await page.goto('/gdpr');
  expect((await beacon).method()).toBe('POST');
  await page.getByRole('navigation', { name: 'Legal pages' }).getByRole('link', { name: 'Privacy Policy' }).click();
  await expect
    .poll(async () =>
      (
        await queryServerDatabase<{ referrer: string }>(
          "select referrer from page_views where path = '/privacy-policy'",
        )
      )
        .map((r) => r.referrer)
        .some((r) => r?.endsWith('/gdpr')),
    )
    .toBe(true);
});

test('a browser sending Do Not Track reports nothing', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { DNT: '1' } });
  const page = await context.newPage();
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' }));
  const beacons: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/analytics/')) beacons.push(r.url());
  });
  await page.goto('/terms-of-service');
  await page.waitForLoadState('networkidle');
  expect(beacons).toEqual([]);
  await context.close();
});

test('the privacy policy and the landing page fit a 390 px phone without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/privacy-policy', '/']) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});
