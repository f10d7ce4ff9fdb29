import { expect, expectAccessible, test } from './fixtures.ts';

/** Every page a visitor can open without an account. */
const publicPages = [
  '/',
  '/careers',
  '/user-guide',
  '/cross-border-collaboration',
  '/ai-medical-image-qc-models',
  '/multi-modal-medical-image-support',
  '/privacy-policy',
  '/terms-of-service',
  '/gdpr',
  '/login',
  '/register',
  '/verify-email',
  '/reset-password',
  '/no-such-page',
];

const widths = [320, 390, 768, 1440];

for (const path of publicPages) {
  test(`${path} fits 320, 390, 768 and 1440 px without sideways scrolling`, async ({ page }) => {
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
        // The widest element, to name the culprit when the test fails.
        culprits: [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .slice(0, 5)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
      }));
      expect(overflow.scroll, `${path} at ${width} px: ${overflow.culprits.join(', ')}`).toBeLessThanOrEqual(
        overflow.client,
      );
      // Every text fits its box: a word wider than its tile would be clipped or spill out.
      const spilled = await page.evaluate(() =>
        [...document.querySelectorAll('main li, main .card, main h1, main h2, main h3')]
          .filter((el) => el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1)
          .map((el) => `${el.tagName.toLowerCase()}: ${el.textContent?.trim().slice(0, 40)}`),
      );
      expect(spilled, `${path} at ${width} px`).toEqual([]);
    }
    await expectAccessible(page);
  });
}

test('a short page has no blank band under its footer', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1400 });
  for (const path of ['/no-such-page', '/login', '/verify-email']) {
    await page.goto(path);
    const gap = await page.evaluate(() => {
      const footer = document.querySelector('footer.site-footer')!;
      return window.innerHeight - footer.getBoundingClientRect().bottom;
    });
    expect(gap, path).toBeLessThanOrEqual(1);
  }
});

test('the footer separates the copyright from the social links', async ({ page }) => {
  await page.goto('/gdpr');
  const legal = page.getByRole('contentinfo').locator('.legal');
  await expect(legal).toHaveText(/^© \d{4} LumenQC\.\s+LinkedIn · GitHub$/);
  const copyright = await legal.evaluate((el) => (el as HTMLElement).innerText);
  expect(copyright).not.toMatch(/\.LinkedIn/);
});

test('every public page names a canonical address that answers 200, with Open Graph and a preview image', async ({
  page,
  request,
}) => {
  for (const path of publicPages.slice(0, 9)) {
    await page.goto(path);
    const canonical = await page.locator('link[rel=canonical]').getAttribute('href');
    const ogUrl = await page.locator('meta[property="og:url"]').getAttribute('content');
    expect(canonical, path).toBe(ogUrl);
    const canonicalPath = new URL(canonical!).pathname;
    expect(canonicalPath, path).toBe(path);
    expect((await request.get(canonicalPath)).status(), canonical!).toBe(200);

    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    expect(image, path).toMatch(/^https?:\/\/.+\.png$/);
    const preview = await request.get(new URL(image!).pathname);
    expect(preview.status()).toBe(200);
    expect(preview.headers()['content-type']).toBe('image/png');
    await expect(page.locator('meta[property="og:image:width"]')).toHaveAttribute('content', '1200');
    await expect(page.locator('meta[property="og:image:height"]')).toHaveAttribute('content', '630');
    await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', /.+/);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
  }
});

test('careers benefits carry inline SVG icons, not emoji', async ({ page }) => {
  await page.goto('/careers');
  const benefits = page.locator('#benefits li');
  const count = await benefits.count();
  expect(count).toBeGreaterThanOrEqual(3);
  for (let i = 0; i < count; i++) {
    const icon = benefits.nth(i).locator('svg');
    await expect(icon).toHaveCount(1);
    await expect(icon).toHaveAttribute('aria-hidden', 'true');
    const box = await icon.boundingBox();
    expect(box!.width).toBeGreaterThan(16);
  }
  const text = await page.locator('#benefits').innerText();
  expect(text).not.toMatch(/\p{Extended_Pictographic}/u);
});
