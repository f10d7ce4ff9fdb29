import { readFileSync } from 'node:fs';
import { structureStats } from '../../src/lib/structure-stats.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { changedFraction, decodePng, drawnFraction, pixelsOf, signIn } from './viewers-helpers.ts';

// SwiftShader draws WebGL on the CPU: each view costs seconds on two cores.
test.describe.configure({ timeout: 180_000 });

const rendered = (page: import('@playwright/test').Page, id: string) =>
  expect(page.locator(`.mv-canvas[data-rendered="${id}"]`)).toBeAttached({ timeout: 30_000 });

test('draws the default protein after a real loading state, with stats counted from its file', async ({
  page,
  request,
  consoleErrors,
}) => {
  await signIn(page, request);
  // Hold the structure file back so the loading state can be seen, then let it through untouched.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/structures/protein_001.pdb', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/dashboard/model-viewer');
  await expect(page.getByRole('heading', { name: '3D Models', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading 3D model…' })).toBeVisible();
  await expectAccessible(page);
  release();
  await rendered(page, 'protein_001');
  await expect(page.getByText('Loading 3D model…')).toHaveCount(0);

  const expected = structureStats(readFileSync('public/structures/protein_001.pdb', 'utf8'), 'pdb');
  for (const [key, value] of Object.entries({
    atoms: expected.atoms,
    residues: 52,
    chains: 4,
    helices: 2,
    strands: 2,
  })) {
    await expect(page.locator(`dd[data-stat="${key}"]`)).toHaveText(String(value));
  }
  expect(expected.atoms).toBeGreaterThan(300);
  const canvas = page.locator('.mv-canvas canvas').first();
  expect(drawnFraction(await pixelsOf(canvas))).toBeGreaterThan(0.02);
  await expect(page.locator('.mv-related li.active')).toContainText('Active');
  await expect(page.locator('.mv-related li.active')).toContainText('protein_001');
  expect(consoleErrors).toEqual([]);
});

test('every representation, colour scheme and background changes the rendered pixels', async ({ page, request }) => {
  await signIn(page, request);
  await page.goto('/dashboard/model-viewer?id=protein_001&type=protein');
  await rendered(page, 'protein_001');
  const canvas = page.locator('.mv-canvas canvas').first();
  let previous = await pixelsOf(canvas);
  const steps: [string, string][] = [
    ['Representation', 'Ball & Stick'],
    ['Representation', 'Space Fill'],
    ['Representation', 'Ribbon'],
    ['Representation', 'Cartoon'],
    ['Colour scheme', 'Element'],
    ['Colour scheme', 'Chain'],
    ['Colour scheme', 'Residue'],
    ['Colour scheme', 'Secondary Structure'],
    ['Background', 'Black'],
    ['Background', 'Gray'],
    ['Background', 'White'],
  ];
  for (const [control, option] of steps) {
    await page.getByLabel(control).selectOption({ label: option });
    await expect
      .poll(async () => changedFraction(previous, await pixelsOf(canvas)), { message: `${control} → ${option}` })
      .toBeGreaterThan(0.005);
    previous = await pixelsOf(canvas);
    expect(drawnFraction(previous), `${control} → ${option} draws something`).toBeGreaterThan(0.02);
  }
});

test('Reset View undoes a rotation, and Download saves the structure file and a PNG', async ({ page, request }) => {
  await signIn(page, request);
  await page.goto('/dashboard/model-viewer');
  await rendered(page, 'protein_001');
  const canvas = page.locator('.mv-canvas canvas').first();
  const start = await pixelsOf(canvas);
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 160, box.y + box.height / 2 + 60, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => changedFraction(start, await pixelsOf(canvas))).toBeGreaterThan(0.01);
  await page.getByRole('button', { name: 'Reset View' }).click();
  await expect.poll(async () => changedFraction(start, await pixelsOf(canvas))).toBeLessThan(0.002);
  // The same without a mouse: turn and zoom buttons, then Reset View by keyboard.
  await page.getByRole('button', { name: 'Rotate right' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(async () => changedFraction(start, await pixelsOf(canvas))).toBeGreaterThan(0.01);
  await page.getByRole('button', { name: 'Reset View' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => changedFraction(start, await pixelsOf(canvas))).toBeLessThan(0.002);

  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download .pdb' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('protein_001.pdb');
  expect(readFileSync(await file.path(), 'utf8')).toBe(readFileSync('public/structures/protein_001.pdb', 'utf8'));

  const [png] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download PNG' }).click(),
  ]);
  expect(png.suggestedFilename()).toBe('protein_001.png');
  const snapshot = await decodePng(readFileSync(await png.path()));
  expect(snapshot.width).toBeGreaterThan(200);
  expect(drawnFraction(snapshot)).toBeGreaterThan(0.02);
});

test('related models switch structures, and Share copies a link that opens the same id and type', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, request);
  await page.goto('/dashboard/model-viewer');
  await rendered(page, 'protein_001');
  await page.getByRole('link', { name: /Caffeine/ }).click();
  await rendered(page, 'molecule_001');
  await expect(page).toHaveURL(/\/dashboard\/model-viewer\?id=molecule_001&type=molecule$/);
  await expect(page.locator('.mv-related li.active')).toContainText('Caffeine');
  await expect(page.locator('dd[data-stat="formula"]')).toHaveText('C8H10N4O2');
  expect(drawnFraction(await pixelsOf(page.locator('.mv-canvas canvas').first()))).toBeGreaterThan(0.01);

  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/\/dashboard\/model-viewer\?id=molecule_001&type=molecule$/);
  await expectAccessible(page);

  const other = await context.newPage();
  await other.goto(link);
  await rendered(other, 'molecule_001');
  await expect(other.locator('.mv-related li.active')).toContainText('molecule_001');
  await other.close();

  // The header's 3D Models link opens the default model in place; Back returns to caffeine.
  await page
    .getByRole('navigation', { name: /dashboard|main/i })
    .getByRole('link', { name: '3D Models' })
    .click();
  await rendered(page, 'protein_001');
  await expect(page.locator('.mv-related li.active')).toContainText('protein_001');
  await page.goBack();
  await rendered(page, 'molecule_001');
});

test('an unknown id shows a clear error', async ({ page, request }) => {
  await signIn(page, request);
  await page.goto('/dashboard/model-viewer?id=protein_999&type=protein');
  await expect(page.getByRole('alert')).toHaveText(
    'No 3D model "protein_999" of type "protein" exists. Choose one of the models below.',
  );
  await expect(page.getByRole('button', { name: 'Download PNG' })).toBeDisabled();
});
