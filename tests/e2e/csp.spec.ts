import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signedInAccount, useSession } from './dashboard-session.ts';

const publicPages = [
  '/',
  '/careers',
  '/user-guide',
  '/login',
  '/register',
  '/reset-password',
  '/verify-email',
  '/privacy-policy',
  '/terms-of-service',
  '/gdpr',
  '/cross-border-collaboration',
  '/ai-medical-image-qc-models',
  '/multi-modal-medical-image-support',
  '/no-such-page',
];
const dashboardPages = [
  '/dashboard',
  '/dashboard/images',
  '/dashboard/analysis',
  '/dashboard/model-viewer',
  '/dashboard/profile',
  '/dashboard/settings',
];

/** Records every Content-Security-Policy violation of the page, from before its first script runs. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sample}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test('every page runs under a CSP without unsafe-inline scripts or styles, with no violation', async ({
  page,
  request,
  consoleErrors,
}) => {
  const violations = await watchViolations(page);
  for (const path of publicPages) {
    const response = await page.goto(path);
    const csp = response?.headers()['content-security-policy'] ?? '';
    const scripts = csp.split(';').find((directive) => directive.trim().startsWith('script-src ')) ?? '';
    expect(scripts, path).not.toContain('unsafe-inline');
    expect(scripts, path).toContain("'sha256-");
    const styles = csp.split(';').find((directive) => directive.trim().startsWith('style-src ')) ?? '';
    expect(styles, path).not.toContain('unsafe-inline');
    await page.waitForLoadState('networkidle');
    expect(await violations(), path).toEqual([]);
  }
  const account = await signedInAccount(request);
  await useSession(page, account);
  for (const path of dashboardPages) {
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await violations(), path).toEqual([]);
  }
  expect(consoleErrors.filter((error) => /Content Security Policy/i.test(error))).toEqual([]);
});
