import { expect, expectAccessible, test } from './fixtures.ts';
import { apiUpload, largePngLike, signedInAccount, useSession } from './dashboard-session.ts';

test.describe('Storage usage on My Images', () => {
  test('shows a labelled meter of the workspace quota that follows uploads', async ({ page, request }) => {
    const account = await signedInAccount(request);
    await useSession(page, account);
    await page.goto('/dashboard/images');
    const meter = page.getByRole('meter', { name: 'Storage' });
    await expect(meter).toBeVisible();
    await expect(meter).toHaveAttribute('aria-valuetext', '0 bytes of 1 TB used (1 TB left)');
    await expectAccessible(page);

    await apiUpload(request, account, 'scan.png', largePngLike(1));
    await page.reload();
    await expect(page.getByRole('meter', { name: 'Storage' })).toHaveAttribute(
      'aria-valuetext',
      /^1 MB of 1 TB used \(1024 GB left\)$|^1 MB of 1 TB used \(1023\.\d+ GB left\)$/,
    );
  });
});
