import { brand } from '../../contract/brand.ts';
import { queryServerDatabase } from './public-database.ts';
import { expect, test } from './fixtures.ts';

const sections = [
  'registration',
  'imaging-modalities',
  'synthetic-generation',
  'quality-check',
  'dataset-creation',
  'collaboration',
  'advanced',
  'security-compliance',
  'troubleshooting',
  'glossary',
];

const topOf = (page: import('@playwright/test').Page, id: string) =>
  page.locator(`#${id}`).evaluate((el) => Math.round(el.getBoundingClientRect().top));

test('the guide has its ten sections in order, a sidebar and the facts of the specification', async ({
  page,
  consoleErrors,
}) => {
  await page.goto('/user-guide');
  await expect(page.getByRole('heading', { level: 1, name: 'User Guide' })).toBeVisible();
  const ids = await page.locator('section.guide-section').evaluateAll((els) => els.map((e) => e.id));
  expect(ids).toEqual(sections);
  const contents = page.getByRole('navigation', { name: 'Contents' });
  for (const id of sections) await expect(contents.locator(`a[href="#${id}"]`)).toHaveCount(1);
  const main = page.getByRole('main');
  for (const fact of [
    '2D generation is available now',
    'not for primary diagnosis',
    'single-class dominance under 40%',
    'Spot-review 5-10%',
    'style variance below 0.3',
    'AES-256',
    'TLS 1.2 or later',
    '5 Mbps',
    'dataset.write',
    '.nii.gz',
  ])
    await expect(main.getByText(fact).first()).toBeVisible();
  await expect(main.getByRole('link', { name: brand.email }).last()).toHaveAttribute('href', `mailto:${brand.email}`);
  expect(consoleErrors).toEqual([]);
});

test('opening the guide on a hash lands that section 120 px below the top, and so does a hash change', async ({
  page,
}) => {
  await page.goto('/user-guide#advanced');
  await expect.poll(() => topOf(page, 'advanced')).toBeCloseTo(120, -0.5);
  await page.evaluate(() => (location.hash = '#glossary'));
  await expect.poll(() => topOf(page, 'glossary')).toBeCloseTo(120, -0.5);
});

test('a Yes answer to "Was this section helpful?" is stored for that section', async ({ page }) => {
  await page.goto('/user-guide#troubleshooting');
  const box = page.locator('[data-feedback="troubleshooting"]');
  await box.getByRole('button', { name: /^Yes/ }).click();
  await expect(box.getByRole('status')).toHaveText('Thank you for your feedback.');
  await expect(box.getByRole('button', { name: /^Yes/ })).toHaveAttribute('aria-pressed', 'true');
  await expect
    .poll(async () =>
      queryServerDatabase<{ helpful: boolean }>(
        "select helpful from feedback where page = '/user-guide' and section = 'troubleshooting'",
      ),
    )
    .toEqual([{ helpful: true }]);
});

test('search finds a term of the troubleshooting section and links to it', async ({ page }) => {
  await page.goto('/user-guide');
  await page.getByLabel('Search the guide').fill('truncated');
  const results = page.locator('[data-search-results] a');
  await expect(results.first()).toBeVisible();
  // Each hit points at a heading; the one of the troubleshooting section must be among them.
  const sectionsHit = await results.evaluateAll((links) =>
    links.map((a) => {
      const id = decodeURIComponent(new URL((a as HTMLAnchorElement).href).hash.slice(1));
      return document.getElementById(id)?.closest('section.guide-section')?.id;
    }),
  );
  expect(sectionsHit).toContain('troubleshooting');
  await results.filter({ hasText: 'QC failed' }).click();
  await expect(page).toHaveURL(/\/user-guide#the-quality-check-says-qc-failed$/);
  await expect(page.getByRole('status').filter({ hasText: /results? for "truncated"/ })).toBeVisible();
});

for (const width of [390, 800]) {
  test(`at ${width} px the contents sit above the text and nothing overflows`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/user-guide');
    const sidebar = await page.getByRole('navigation', { name: 'Contents' }).boundingBox();
    const firstSection = await page.locator('#registration').boundingBox();
    expect(sidebar!.y + sidebar!.height).toBeLessThan(firstSection!.y);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('the contents mark the section in view as the reader scrolls, and only that one', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/user-guide');
  const contents = page.getByRole('navigation', { name: 'Contents' });
  const current = contents.locator('a[aria-current="location"]');
  await expect(current).toHaveCount(1);
  await expect(current).toHaveAttribute('href', '#registration');
  for (const id of ['quality-check', 'security-compliance', 'imaging-modalities']) {
    // Put the section's top just under the sticky header, as its link does.
    await page.evaluate((target) => {
      const top = document.getElementById(target)!.getBoundingClientRect().top + window.scrollY - 120;
      window.scrollTo({ top, behavior: 'instant' });
    }, id);
    await expect(current).toHaveAttribute('href', `#${id}`);
    await expect(current).toHaveCount(1);
  }
  // Following a link of the contents lands on its section and marks it.
  await contents.getByRole('link', { name: 'Troubleshooting' }).click();
  await expect(current).toHaveAttribute('href', '#troubleshooting');
  await expect(current).toBeVisible();
});

for (const [term, section] of [
  ['windowing', 'imaging-modalities'],
  ['viewer', 'imaging-modalities'],
  ['previews', 'imaging-modalities'],
  ['de-identification', 'imaging-modalities'],
  ['QC metrics', 'quality-check'],
  ['FBER', 'quality-check'],
]) {
  test(`search for "${term}" finds the ${section} section`, async ({ page }) => {
    await page.goto('/user-guide');
    await page.getByLabel('Search the guide').fill(term);
    const results = page.locator('[data-search-results] a');
    await expect(results.first()).toBeVisible();
    const sectionsHit = await results.evaluateAll((links) =>
      links.map((a) => {
        const id = decodeURIComponent(new URL((a as HTMLAnchorElement).href).hash.slice(1));
        return document.getElementById(id)?.closest('section.guide-section')?.id;
      }),
    );
    expect(sectionsHit).toContain(section);
  });
}

test('every section of the guide ends with its own "Was this section helpful?" Yes/No pair', async ({ page }) => {
  await page.goto('/user-guide');
  for (const id of sections) {
    const last = page.locator(`section#${id} > :last-child`);
    await expect(last).toHaveAttribute('data-feedback', id);
    await expect(last.getByRole('button', { name: /^Yes/ })).toBeVisible();
    await expect(last.getByRole('button', { name: /^No/ })).toBeVisible();
  }
});
