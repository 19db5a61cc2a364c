import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { axeScan, expect, lessonAppReady, linkFromMail, PASSWORD, shot, signUp, tabTo, test } from './fixtures';

const NEW_PASSWORD = 'a longer and newer passphrase 42';

test.use({ viewport: { width: 375, height: 812 } });

async function fitsTheScreen(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what}: no sideways scrolling at 375 px`).toBeLessThanOrEqual(0);
}

test('the account a learner owns: password, my data, my reports, deletion at 375 px', async ({ page, watch }) => {
  watch.allow(/^400 .*\/_allauth\/browser\/v1\/account\/password\/change$/);
  const email = await signUp(page, 'owner');

  // A report to find in My reports.
  await page.goto('/lessons/embedding-dimension');
  await lessonAppReady(page);
  await page.getByRole('button', { name: 'Report an issue' }).click();
  const report = page.getByRole('dialog', { name: 'Report an issue' });
  await report.getByLabel('Typo').check();
  await report.getByLabel('Details').fill('“paramters” in the second paragraph.');
  await report.getByRole('button', { name: 'Send report' }).click();
  await expect(report).toBeHidden();

  // Change the password, by keyboard.
  await page.goto('/settings');
  const account = page.getByRole('region', { name: 'Account' });
  const passwordForm = account.getByRole('form', { name: 'Change password' });
  await expect(passwordForm).toContainText('signs out your other devices; this one stays signed in');
  await tabTo(page, passwordForm.getByLabel('Current password'));
  await page.keyboard.type('not my password');
  await page.keyboard.press('Tab');
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press('Enter');
  // allauth's refusal, beside the field (a 400 the test provokes).
  await expect(passwordForm.getByText('Please type your current password.')).toBeVisible();
  await passwordForm.getByLabel('Current password').fill(PASSWORD);
  await passwordForm.getByLabel('New password').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Password changed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await shot(page, 'account-password-changed-375');
  await axeScan(page, 'settings account 375');
  await fitsTheScreen(page, 'settings');

  // Download my data.
  const downloading = page.waitForEvent('download');
  await tabTo(page, account.getByRole('button', { name: 'Download my data' }));
  await page.keyboard.press('Enter');
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^learning-platform-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(readFileSync(await download.path(), 'utf8'));
  expect(data.profile.email).toBe(email);
  expect(data.reports).toEqual([expect.objectContaining({ lesson: 'embedding-dimension', kind: 'typo', status: 'new', answer: '' })]);
  await expect(page.getByText('Your data was downloaded')).toBeVisible();
  await shot(page, 'account-data-downloaded-375');

  // My reports, from settings.
  await tabTo(page, account.getByRole('link', { name: 'My reports' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'My reports', level: 1 })).toBeVisible();
  const mine = page.getByRole('list', { name: 'Your reports' }).getByRole('article');
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('Typo on');
  await expect(mine).toContainText('Received');
  await expect(mine).toContainText('No answer yet.');
  await shot(page, 'account-my-reports-375');
  await axeScan(page, 'my reports 375');
  await fitsTheScreen(page, 'my reports');

  // Delete the account: the dialog closes on Escape with focus back on its opener, then for real.
  await page.goto('/settings');
  const opener = account.getByRole('button', { name: 'Delete my account…' });
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog).toContainText('signing in before then cancels the deletion');
  await expect(dialog.getByLabel('Your password')).toBeFocused();
  await shot(page, 'account-delete-dialog-375');
  await axeScan(page, 'delete dialog 375');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('flash')).toContainText(/You are signed out\. Your account will be deleted on .+; signing in before then cancels it\./);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  const session = await page.evaluate(async () => (await fetch('/api/v1/session')).json());
  expect(session.is_authenticated).toBe(false);
  await shot(page, 'account-deleted-signed-out-375');

  // Within the grace period, signing in keeps the account.
  await page.goto('/signin?next=%2Fsettings');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const me = await page.evaluate(async () => (await fetch('/api/v1/me/')).json());
  expect(me.deletion_requested_at).toBeNull();
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('changing the e-mail address: pending until confirmed, then the account’s own', async ({ page, watch }) => {
    // allauth answers 401 to the DELETE that signs out (a success, see web/README.md).
    watch.allow(/^401 .*\/_allauth\/browser\/v1\/auth\/session$/);
    const old = await signUp(page, 'mover');
    const next = old.replace(/^mover-/, 'moved-');
    await page.goto('/settings');
    const form = page.getByRole('region', { name: 'Account' }).getByRole('form', { name: 'E-mail address' });
    await tabTo(page, form.getByLabel('New e-mail address'));
    await page.keyboard.type(next);
    await page.keyboard.press('Enter');
    await expect(form.getByText(/Waiting for confirmation/)).toContainText(next);
    await expect(form.getByText(/Your address/)).toContainText(old);
    await shot(page, 'account-email-pending-1280');
    await axeScan(page, 'settings e-mail pending 1280');

    const link = await linkFromMail(next, /https?:\/\/[^\s"<>]+\/account\/verify-email\/[^\s"<>]+/);
    await page.goto(link.slice(baseURL.length));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByTestId('flash')).toContainText('E-mail confirmed — make it your address under Account');
    await expect(page).toHaveURL(/\/settings$/);
    const use = form.getByRole('button', { name: `Use ${next}` });
    await tabTo(page, use);
    await page.keyboard.press('Enter');
    await expect(form.getByText(/Your address/)).toContainText(next);
    await expect(form.getByRole('status')).toHaveCount(0);
    await shot(page, 'account-email-changed-1280');

    // Signed out from the home page once it has loaded (see account-emails.spec.ts), then in
    // with the new address.
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Start the quest' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
    await page.goto('/signin');
    await page.getByLabel('E-mail').fill(next);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  });
});
