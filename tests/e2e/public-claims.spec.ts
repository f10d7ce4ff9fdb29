import { expect, test } from './fixtures.ts';

test('every figure of the why-choose section is marked as a goal and says what it would measure', async ({ page }) => {
  await page.goto('/');
  const about = page.locator('#about');
  await expect(about.getByText(/targets we hold ourselves to, not results we have measured yet/)).toBeVisible();
  const cards = about.locator('.claims li');
  await expect(cards).toHaveCount(5);
  for (let i = 0; i < 5; i++) {
    await expect(cards.nth(i).getByText('Goal', { exact: true })).toBeVisible();
    await expect(cards.nth(i)).toContainText('Target');
  }
});

test('Trusted by shows empty places and says institutions are named once they agree, with no logos', async ({
  page,
}) => {
  await page.goto('/');
  const trusted = page.locator('#trusted-by');
  await expect(trusted.getByText(/only once it has agreed, in writing, to be listed/)).toBeVisible();
  await expect(trusted.getByRole('listitem')).toHaveCount(3);
  for (const item of await trusted.getByRole('listitem').all())
    await expect(item).toHaveText('Listed once the institution agrees');
  await expect(trusted.locator('img, svg')).toHaveCount(0);
  await expect(trusted.getByRole('link', { name: /contact form/ })).toHaveAttribute('href', '#contact');
});

test('pricing explains what moves the price within each range and links features to guide sections that exist', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const pricing = page.locator('#pricing');
  await expect(pricing.getByText(/how many members your workspace has and how much storage/)).toBeVisible();
  await expect(pricing.getByText(/nothing is billed yet/)).toBeVisible();
  for (const name of ['Basic', 'Pro', 'Enterprise'])
    await expect(pricing.getByRole('article', { name }).locator('.moves')).toHaveText(/\w.{30,}/);

  const guide = await (await request.get('/user-guide')).text();
  const links = await pricing
    .locator('article a[href^="/user-guide#"]')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
  expect(links.length).toBeGreaterThanOrEqual(10);
  for (const href of new Set(links)) expect(guide, href).toContain(`id="${href.split('#')[1]}"`);
});

test('the multi-modal page describes the product as it is: de-identification, previews, viewer, windowing, metrics', async ({
  page,
}) => {
  await page.goto('/multi-modal-medical-image-support');
  const main = page.getByRole('main');
  for (const text of [
    /de-identified as it arrives/i,
    /Previews and the viewer/,
    /Windowing/,
    /Hounsfield units/,
    /SNR, CNR/,
    /Pass.{0,3}, .{0,3}Review.{0,3} or .{0,3}Fail/,
  ])
    await expect(main.getByText(text).first()).toBeVisible();
  await expect(main).not.toContainText('stored as sent');
  await expect(main).not.toContainText('dedicated viewers');
});
