import { expect, expectAccessible, test } from './fixtures.ts';
import { pngFile, signedInAccount, useSession } from './dashboard-session.ts';
import { apiAs, chooseWorkspace, teamWorkspace, uploadTo } from './review-helpers.ts';

test.describe('review workflow', () => {
  test('a researcher rates ten images in the queue with the keyboard alone', async ({ page, request }) => {
    const rater = await signedInAccount(request, 'Kay Rater');
    for (let i = 1; i <= 10; i += 1)
      await uploadTo(request, rater, undefined, `scan-${i}.png`, await pngFile(64, 48 + i));
    await useSession(page, rater);
    await page.goto('/dashboard/review');
    await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible();
    const live = page.locator('.review-view > [role="status"][aria-live="polite"]');
    await expect(live).toContainText('10 images. Image 1 of 10: scan-1.png.');
    await expect(page.getByRole('img', { name: 'Preview of scan-1.png' })).toBeVisible();
    await expectAccessible(page);

    // Next and previous, with both key pairs.
    await page.keyboard.press('n');
    await expect(live).toHaveText('Image 2 of 10: scan-2.png.');
    await page.keyboard.press('ArrowRight');
    await expect(live).toHaveText('Image 3 of 10: scan-3.png.');
    await page.keyboard.press('p');
    await page.keyboard.press('ArrowLeft');
    await expect(live).toHaveText('Image 1 of 10: scan-1.png.');
    await expect(page.getByText('Status: Not rated yet')).toBeVisible();

    // Image 1: t moves to the tags, space ticks "motion", 3 rates it unusable with that tag.
    await page.keyboard.press('t');
    await expect(page.getByRole('checkbox', { name: 'motion' })).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page.getByRole('checkbox', { name: 'motion' })).toBeChecked();
    await page.keyboard.press('3');
    await expect(live).toHaveText('Rated Unusable. Image 2 of 10: scan-2.png.');

    // Images 2–10: usable, questionable in turn; each key waits for the previous rating to land.
    const keys = ['1', '2', '1', '1', '2', '1', '1', '3', '1'];
    const labels: Record<string, string> = { '1': 'Usable', '2': 'Questionable', '3': 'Unusable' };
    for (const [i, key] of keys.entries()) {
      await page.keyboard.press(key);
      const n = i + 3;
      await expect(live).toHaveText(
        n <= 10
          ? `Rated ${labels[key]}. Image ${n} of 10: scan-${n}.png.`
          : `Rated ${labels[key]}. That was the last image.`,
      );
    }
    await expect(page.getByRole('button', { name: 'Usable', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expectAccessible(page);

    // The server holds the ten ratings: none left unrated, two questionable ones wait for tier 2.
    const unrated = await apiAs(request, rater, 'GET', '/reviews/queue?filter=unrated');
    expect(unrated!.total).toBe(0);
    const tier2 = await apiAs(request, rater, 'GET', '/reviews/queue?filter=tier2');
    expect((tier2!.items as { original_name_guess: string }[]).map((i) => i.original_name_guess)).toEqual([
      'scan-3.png',
      'scan-6.png',
    ]);
    const all = (await apiAs(request, rater, 'GET', '/reviews/queue?filter=all'))!.items as {
      stored_filename: string;
      my_rating: string;
    }[];
    expect(all.map((i) => i.my_rating)).toEqual([
      'unusable',
      'usable',
      'questionable',
      'usable',
      'usable',
      'questionable',
      'usable',
      'usable',
      'unusable',
      'usable',
    ]);
    const first = await apiAs(request, rater, 'GET', `/uploads/${all[0]!.stored_filename}/review`);
    expect((first!.my_rating as { tags: string[] }).tags).toEqual(['motion']);

    // The cards show the decision beside the fixed 'Uploaded' label.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Images' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'scan-1.png' }) });
    await expect(card.getByText('Uploaded', { exact: true })).toBeVisible();
    await expect(card).toContainText('Review: Unusable (tier 1)');
    await expect(card.getByText('Unusable · T1')).toBeVisible();
    await expectAccessible(page);
  });

  test("blind reads hide the other rater's rating until both have rated", async ({ browser, request }) => {
    const ada = await signedInAccount(request, 'Ada Blind');
    const ben = await signedInAccount(request, 'Ben Blind');
    const team = await teamWorkspace(request, ada, 'Blind reads', [{ account: ben, role: 'reviewer' }]);
    await apiAs(request, ada, 'PATCH', '/reviews/settings', team, { blind: true });
    await uploadTo(request, ada, team, 'double-read.png', await pngFile(80, 80));

    const adaContext = await browser.newContext();
    const benContext = await browser.newContext();
    const adaPage = await adaContext.newPage();
    const benPage = await benContext.newPage();
    for (const [page, account] of [
      [adaPage, ada],
      [benPage, ben],
    ] as const) {
      await useSession(page, account);
      await chooseWorkspace(page, team);
      await page.goto('/dashboard/review');
      await expect(page.getByRole('img', { name: 'Preview of double-read.png' })).toBeVisible();
    }

    // Ben rates first, then Ada sees only that a rating is withheld.
    await benPage.keyboard.press('3');
    await expect(benPage.getByRole('button', { name: 'Unusable', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await adaPage.getByLabel('Show').selectOption('all');
    await expect(adaPage.getByText('1 rating is hidden until you rate (blind reads).')).toBeVisible();
    await expect(adaPage.getByText('Hidden until you rate (blind reads)', { exact: true })).toBeVisible();
    await expect(adaPage.getByRole('list', { name: 'Ratings' })).toHaveCount(0);
    // Nothing of Ben's rating in the image's review (his name shows only in the admin's settings and assignment lists).
    await expect(adaPage.getByRole('region', { name: 'Image review' }).getByText('Ben Blind')).toHaveCount(0);
    await expectAccessible(adaPage);

    // Once Ada has rated, she sees Ben's rating, and the disagreement sends the image to tier 2.
    await adaPage.keyboard.press('1');
    const adaRatings = adaPage.getByRole('list', { name: 'Ratings' });
    await expect(adaRatings).toContainText('Ben Blind: Unusable');
    await expect(adaRatings).toContainText('Ada Blind: Usable');
    await expect(adaPage.getByText('Sent to tier 2 (raters disagree)')).toBeVisible();

    // And Ben, who rated first, now sees Ada's.
    await benPage.getByLabel('Show').selectOption('all');
    await expect(benPage.getByRole('list', { name: 'Ratings' })).toContainText('Ada Blind: Usable');
    await expectAccessible(benPage);
    await expectAccessible(adaPage);
    await adaContext.close();
    await benContext.close();
  });

  test('a tier-2 reviewer decides a disagreement, and the decision shows with who and when', async ({
    page,
    request,
  }) => {
    const admin = await signedInAccount(request, 'Ada Tier');
    const member = await signedInAccount(request, 'Max Tier');
    const senior = await signedInAccount(request, 'Sue Senior');
    const team = await teamWorkspace(request, admin, 'Two tiers', [
      { account: member, role: 'member' },
      { account: senior, role: 'reviewer' },
    ]);
    const image = await uploadTo(request, admin, team, 'disputed.png', await pngFile(72, 72));
    await apiAs(request, admin, 'PUT', `/uploads/${image}/review/rating`, team, { rating: 'usable' });
    await apiAs(request, member, 'PUT', `/uploads/${image}/review/rating`, team, {
      rating: 'unusable',
      tags: ['ghosting'],
    });

    // The admin makes Sue a tier-2 reviewer in the review settings.
    await useSession(page, admin);
    await chooseWorkspace(page, team);
    await page.goto('/dashboard/review');
    await expect(page.getByRole('heading', { name: 'Review settings' })).toBeVisible();
    // The box follows the saved settings, so it ticks once the server has answered.
    await page.getByRole('checkbox', { name: 'Sue Senior (reviewer)' }).click();
    await expect(page.getByRole('checkbox', { name: 'Sue Senior (reviewer)' })).toBeChecked();
    await expect(page.getByText('Tier-2 reviewers saved.')).toBeVisible();
    // And assigns the image to Max, who then finds it under "Assigned to me".
    await page.getByLabel('Show').selectOption('all');
    const assign = page.getByRole('group', { name: 'Assigned to' });
    await assign.getByRole('checkbox', { name: 'Max Tier' }).click();
    await expect(assign.getByRole('checkbox', { name: 'Max Tier' })).toBeChecked();
    const assigned = await apiAs(request, member, 'GET', '/reviews/queue?filter=assigned', team);
    expect((assigned!.items as { stored_filename: string }[]).map((i) => i.stored_filename)).toEqual([image]);
    await expectAccessible(page);

    await useSession(page, senior);
    await chooseWorkspace(page, team);
    await page.goto('/dashboard/review');
    await page.getByLabel('Show').selectOption('tier2');
    await expect(page.getByRole('img', { name: 'Preview of disputed.png' })).toBeVisible();
    const ratings = page.getByRole('list', { name: 'Ratings' });
    await expect(ratings).toContainText('Ada Tier: Usable');
    await expect(ratings).toContainText('Max Tier: Unusable · ghosting');
    const decide = page.getByRole('region', { name: 'Tier-2 decision' });
    await decide.getByRole('checkbox', { name: 'ghosting' }).check();
    await decide.getByLabel('Note').fill('Ghosting across the frontal lobe');
    await expectAccessible(page);
    await decide.getByRole('button', { name: 'Decide Unusable' }).click();
    await expect(page.getByText('Final decision: Unusable by Sue Senior')).toBeVisible();
    await expect(page.getByText('Decided at tier 2')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Tier-2 decision' })).toHaveCount(0);

    const review = await apiAs(request, admin, 'GET', `/uploads/${image}/review`, team);
    const decision = review!.decision as { decided_by_name: string; decided_at: string; note: string };
    expect(decision.decided_by_name).toBe('Sue Senior');
    expect(decision.note).toBe('Ghosting across the frontal lobe');
    expect(Date.now() - Date.parse(decision.decided_at)).toBeLessThan(60_000);

    // My Images: the card and the details modal show the final decision beside 'Uploaded'.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Images' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'disputed.png' }) });
    await expect(card.getByText('Uploaded', { exact: true })).toBeVisible();
    await expect(card).toContainText('Review: Unusable (tier-2 decision)');
    await expect(card.getByText('Unusable · T2')).toBeVisible();
    await card.getByRole('button', { name: 'Details of disputed.png' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Unusable (tier-2 decision)')).toBeVisible();
    await expectAccessible(page);
  });
});
