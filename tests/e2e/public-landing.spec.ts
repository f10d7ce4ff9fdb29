import { queryServerDatabase } from './public-database.ts';
import { expect, test } from './fixtures.ts';

const sectionIds = ['about', 'features', 'pricing', 'contact', 'documentation', 'trusted-by', 'partners'];

test('the landing page shows every section of the specification with its claims, features and prices', async ({
  page,
  consoleErrors,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const id of sectionIds) await expect(page.locator(`section#${id}`)).toHaveCount(1);

  const about = page.locator('#about');
  for (const claim of ['98%', '50%', '99.9%', '24/7', '20+'])
    await expect(about.getByText(claim, { exact: true })).toBeVisible();
  await expect(about.getByRole('heading', { name: /Why choose/ })).toBeVisible();

  const features = page.locator('#features li');
  await expect(features).toHaveCount(8);
  for (const name of [
    'AI Quality Control',
    'Multi-Modal Support',
    'Privacy & Compliance',
    'Custom Model Integration',
    'Analytics',
    'Collaboration',
    'System Integration',
    'Cross-Border Teleradiology',
  ])
    await expect(page.locator('#features').getByRole('heading', { name, exact: true })).toBeVisible();

  const pricing = page.locator('#pricing');
  const plans = {
    Basic: ['0-49 EUR', 'Up to 100GB storage', 'MRI, CT, X-ray 2D', 'DICOM, JPEG, PNG', 'No annotation tools'],
    Pro: ['99-299 EUR', 'Up to 1TB storage', 'Adds PET and SPECT 3D/4D', 'NIfTI, TIFF', 'Dashboards', 'REST API'],
    Enterprise: [
      'Custom price',
      'Unlimited storage',
      'All modalities including histology and 5D',
      'On-premise option',
      'HL7 and DICOM',
      'Account manager',
    ],
  };
  for (const [name, lines] of Object.entries(plans)) {
    const plan = pricing.getByRole('article', { name });
    for (const line of lines) await expect(plan.getByText(line, { exact: true })).toBeVisible();
  }
  expect(consoleErrors).toEqual([]);
});

test('the header shows Sign In when signed out, My Space with a token, and shrinks past 50 px', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Home', 'About', 'Features', 'Pricing', 'Contact'])
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
  await expect(nav.getByRole('link', { name: 'My Space' })).toBeHidden();

  const header = page.locator('[data-site-header]');
  await expect(header).not.toHaveClass(/is-compact/);
  await page.evaluate(() => window.scrollTo(0, 40));
  await expect(header).not.toHaveClass(/is-compact/);
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect(header).toHaveClass(/is-compact/);

  await page.evaluate(() => localStorage.setItem('token', 'some-token'));
  await page.reload();
  await expect(nav.getByRole('link', { name: 'My Space' })).toHaveAttribute('href', '/dashboard');
  await expect(nav.getByRole('link', { name: 'Sign In' })).toBeHidden();

  // Signing out in another tab turns the link back to Sign In without a reload.
  const other = await page.context().newPage();
  await other.goto('/404');
  await other.evaluate(() => localStorage.removeItem('token'));
  await other.close();
  await expect(nav.getByRole('link', { name: 'Sign In' })).toBeVisible();

  const footer = page.getByRole('contentinfo');
  for (const group of ['Product', 'Company', 'Legal'])
    await expect(footer.getByRole('heading', { name: group })).toBeVisible();
});

test('anchor links land their section 120 px below the top of the window', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/#pricing$/);
  await expect
    .poll(() => page.locator('#pricing').evaluate((el) => Math.round(el.getBoundingClientRect().top)))
    .toBeCloseTo(120, -0.5);
});

test('the mobile menu opens and closes from the keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/');
  const toggle = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Features' })).toBeHidden();
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Home' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();
});

test('no script is fetched until the contact form scrolls into view, then the form hydrates', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((s) => /client|react|ContactForm/i.test(s))).toEqual([]);
  await page.locator('#contact').scrollIntoViewIfNeeded();
  await expect.poll(() => scripts.some((s) => /ContactForm/.test(s))).toBe(true);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
});

test('the contact form sends a real message that lands in the database and the outbox', async ({ page }) => {
  await page.goto('/#contact');
  await page.locator('#contact').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const unique = `e2e-${Date.now()}`;
  await page.getByLabel('Full name').fill('Dr Jana Novak');
  await page.getByLabel('Email').fill(`${unique}@clinic.example`);
  await page.getByLabel('Institution (optional)').fill('Clinic of Brno');
  await page.getByLabel('Message').fill(`Please send me details of the Pro plan (${unique}).`);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Message sent successfully.' })).toBeVisible();
  await expect(page.getByLabel('Full name')).toHaveValue('');
  await expect(page.getByLabel('Message')).toHaveValue('');

  const rows = await queryServerDatabase<{ full_name: string; institution: string; message: string }>(
    'select full_name, institution, message from contact_messages where email = $1',
    [`${unique}@clinic.example`],
  );
  expect(rows).toEqual([
    {
      full_name: 'Dr Jana Novak',
      institution: 'Clinic of Brno',
      message: `Please send me details of the Pro plan (${unique}).`,
    },
  ]);
});

test('a refused message shows the failure text and keeps what was typed', async ({ page, request }) => {
  // The real per-IP limit refuses the form once this address has sent its quota.
  for (let i = 0; i < 6; i++)
    await request.post('/api/v1/contact-messages', {
      data: { full_name: 'Quota', email: 'quota@example.org', message: 'filling the quota' },
    });
  await page.goto('/');
  await page.locator('#contact').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Full name').fill('Dr Jana Novak');
  await page.getByLabel('Email').fill('jana@clinic.example');
  await page.getByLabel('Message').fill('Second message');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Failed to send message. Please try again.')).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveValue('Second message');
});
