import { createVerifiedAccount, mailLink, STRONG_PASSWORD, uniqueEmail, waitForMail } from './auth-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

const WEAK = 'Password too weak. Use 8+ chars with uppercase, number, and special char.';

test.describe('sign-in errors', () => {
  test('a wrong password says "Invalid email or password." and focus goes to the message', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('wrong');
    await createVerifiedAccount(request, email);
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Not-The-Password-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText('Invalid email or password.');
    await expect(alert).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL('/login');
  });

  test('an unverified account with the right password says "Email not verified. Please check your inbox."', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('unverified');
    await request.post('/api/v1/auth/register', {
      data: { name: 'Pending', email, password: STRONG_PASSWORD, organization: null },
    });
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText('Email not verified. Please check your inbox.');
  });

  test("too many wrong passwords show the server's 429 detail", async ({ page, request }) => {
    const email = uniqueEmail('locked');
    await createVerifiedAccount(request, email);
    for (let i = 0; i < 10; i++) {
      await request.post('/api/v1/auth/login', { data: { email, password: 'Not-The-Password-1' } });
    }
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      /^Too many failed sign-in attempts\. Try again in \d+ minutes? or reset your password\.$/,
    );
  });

  test('a refused reset request says "Something went wrong. Try again."', async ({ page }) => {
    const email = uniqueEmail('flood');
    // Five requests per address and hour are allowed; the sixth is refused by the server.
    for (let i = 0; i < 5; i++) await page.request.post('/api/v1/auth/forgot-password', { data: { email } });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('alert')).toHaveText('Something went wrong. Try again.');
  });
});

test.describe('register errors', () => {
  test('shows the checklist live, then mismatch and weak-password messages on the field at fault', async ({ page }) => {
    await page.goto('/register');
    const password = page.getByLabel('Password', { exact: true });
    const confirm = page.getByLabel('Confirm password', { exact: true });
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Email').fill(uniqueEmail('rules'));
    await password.fill('abcdefg');
    const rules = page.getByRole('list', { name: 'Password rules' }).getByRole('listitem');
    await expect(rules).toHaveCount(5);
    await expect(page.locator('.rule-list li.met')).toHaveCount(1);
    await password.fill('abcdefgh');
    await expect(page.locator('.rule-list li.met')).toHaveCount(2);

    await confirm.fill('abcdefgX');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
    await expect(confirm).toBeFocused();

    await confirm.fill('abcdefgh');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveText(WEAK);
    await expect(password).toBeFocused();
    await expectAccessible(page);
  });

  test("shows the server's detail when the server refuses", async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Name').fill('Ada');
    // Valid for the browser's e-mail field, refused by the server (no dot in the domain).
    await page.getByLabel('Email').fill('ada@localhost');
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveText('Enter a valid email address.');
  });

  test('/register?verify={email} shows the check-your-inbox screen directly, and Back returns to the form', async ({
    page,
  }) => {
    await page.goto('/register?verify=ada%40example.org');
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    await expect(page.getByText('ada@example.org')).toBeVisible();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(page).toHaveURL('/register');
  });
});

test.describe('verification errors', () => {
  test('a link without a token says "Verification token is missing." under Invalid Link, with no call', async ({
    page,
  }) => {
    const calls: string[] = [];
    page.on('request', (r) => r.url().includes('/api/v1/auth/verify') && calls.push(r.url()));
    await page.goto('/verify-email');
    await expect(page.getByRole('heading', { name: 'Invalid Link' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Verification token is missing.');
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Home', exact: true })).toBeVisible();
    expect(calls).toEqual([]);
  });

  test("an unknown token shows the server's detail under Verification Error, and Retry reloads", async ({ page }) => {
    await page.goto('/verify-email?token=not-a-real-token-at-all');
    await expect(page.getByRole('heading', { name: 'Verification Error' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Verification failed. The link may be invalid or expired.');
    const reload = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Retry' }).click();
    await reload;
    await expect(page.getByRole('heading', { name: 'Verification Error' })).toBeVisible();
  });
});

test.describe('reset errors', () => {
  test('a link without an e-mail says "Invalid reset link. Missing token or email."', async ({ page }) => {
    await page.goto('/reset-password?token=abc');
    await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Invalid reset link. Missing token or email.');
    await expect(page.getByRole('link', { name: 'Request New Reset' })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
  });

  test('an unknown token shows the invalid-token message', async ({ page }) => {
    await page.goto('/reset-password?token=unknown-token-value&email=ada%40example.org');
    await expect(page.getByRole('alert')).toHaveText(
      'Invalid or expired reset token. Please request a new password reset.',
    );
  });

  test('the reset form refuses mismatched and weak passwords before calling the server', async ({ page, request }) => {
    const email = uniqueEmail('reset+form');
    await createVerifiedAccount(request, email);
    await request.post('/api/v1/auth/forgot-password', { data: { email } });
    const link = new URL(mailLink(await waitForMail(email, 'Reset'), '/reset-password'), 'http://x');
    // The address pasted with its "+" unencoded arrives as a space; the page turns it back and trims it.
    await page.goto(`/reset-password?token=${link.searchParams.get('token')}&email=%20${email}%20`);
    await expect(page.getByText(`New password for ${email}.`)).toBeVisible();
    const password = page.getByLabel('New Password', { exact: true });
    const confirm = page.getByLabel('Confirm New Password', { exact: true });
    await password.fill('Abcdefg1!');
    await confirm.fill('Abcdefg1?');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match.');
    await password.fill('abcdefgh');
    await confirm.fill('abcdefgh');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('alert')).toHaveText(WEAK);
    await expect(page.getByText('Strength weak')).toBeVisible();
  });
});

test.describe('redirects decided before paint', () => {
  test('a signed-in visitor leaves /login and /register for /dashboard', async ({ page, request }) => {
    const email = uniqueEmail('signedin');
    await createVerifiedAccount(request, email);
    const login = await request.post('/api/v1/auth/login', { data: { email, password: STRONG_PASSWORD } });
    const { access_token: token } = (await login.json()) as { access_token: string };
    await page.goto('/');
    await page.evaluate((value) => localStorage.setItem('token', value), token);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/register');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an anonymous visitor of any dashboard page is sent to /login', async ({ page }) => {
    await page.goto('/dashboard/images');
    await expect(page).toHaveURL('/login');
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/login');
  });

  test('/login?token=…&email=… goes on to /reset-password with the same query', async ({ page }) => {
    await page.goto('/login?token=abc&email=ada%40example.org');
    // The reset page got both (it checked the token, rather than calling the link incomplete), then took
    // them out of the address bar.
    await expect(page.getByRole('alert')).toHaveText(
      'Invalid or expired reset token. Please request a new password reset.',
    );
    await expect(page).toHaveURL('/reset-password');
  });
});
