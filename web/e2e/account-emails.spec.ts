import { baseURL } from '../playwright.config';
import { expect, linkFromMail, PASSWORD, shot, signUp, test } from './fixtures';

test('the verification link in the sign-up e-mail confirms the address', async ({ page, watch }) => {
  void watch;
  const email = await signUp(page, 'verify');
  const link = await linkFromMail(email, /https?:\/\/[^\s"<>]+\/account\/verify-email\/[^\s"<>]+/);
  expect(link.startsWith(baseURL)).toBe(true);
  await page.goto(link.slice(baseURL.length));
  await expect(page.getByText(`Confirm that ${email} is your e-mail address.`)).toBeVisible();
  await shot(page, '20-verify-email');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('E-mail confirmed')).toBeVisible();
});

test('a forgotten password is reset through the e-mailed link', async ({ page, watch }) => {
  // allauth answers 401 (with the flows that remain) to signing out and to a reset that does
  // not sign in: its protocol, not an error, but Chromium logs any 401 in the console.
  watch.allow(/^401 .*\/_allauth\/browser\/v1\/auth\/session$/);
  watch.allow(/^401 .*\/_allauth\/browser\/v1\/auth\/password\/reset$/);
  const email = await signUp(page, 'reset');
  // Signed out from the home page once it has loaded the learner's quest: a read still on its
  // way when the session ends is answered 401, which Chromium logs as an error.
  await expect(page.getByRole('link', { name: 'Start the quest' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();

  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(`If an account uses ${email}, a link to reset its password is on its way.`)).toBeVisible();

  const link = await linkFromMail(email, /https?:\/\/[^\s"<>]+\/account\/password\/reset\/key\/[^\s"<>]+/);
  await page.goto(link.slice(baseURL.length));
  const newPassword = `${PASSWORD} and more`;
  await page.getByLabel('New password').fill(newPassword);
  await shot(page, '21-reset-password');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Your password was changed')).toBeVisible();

  if (!(await page.getByRole('button', { name: 'Sign out' }).isVisible())) {
    await page.goto('/signin');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});
