import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { axeScan, expect, lessonAppReady, linkFromMail, newContextPage, PASSWORD, shot, signIn, signUp, tabTo, test } from './fixtures';

const NEW_PASSWORD = 'a longer and newer passphrase 42';

const SIZES = [
  { width: 375, height: 812 },
  { width: 1280, height: 900 },
];

async function fitsTheScreen(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what}: no sideways scrolling`).toBeLessThanOrEqual(0);
}

/** Reaches `field` with the keyboard and replaces what it holds by typing. */
async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

/** Whether the element the pointer would hit at `target`'s centre is `target` or inside it (nothing covers it). */
async function onTop(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && element.contains(hit);
  });
}

for (const size of SIZES) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: size });
    const at = `${size.width}`;

    test('the account a learner owns, by keyboard: password, my data, my reports, deletion', async ({ page, watch }) => {
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

      // Change the password, by keyboard, staying signed in here (the default).
      await page.goto('/settings');
      const account = page.getByRole('region', { name: 'Account' });
      const passwordForm = account.getByRole('form', { name: 'Change password' });
      await expect(passwordForm).toContainText('signs out your other devices');
      await expect(passwordForm.getByRole('checkbox', { name: 'Stay signed in on this device' })).toBeChecked();
      await typeInto(page, passwordForm.getByLabel('Current password'), 'not my password');
      await page.keyboard.press('Tab');
      await page.keyboard.type(NEW_PASSWORD);
      await page.keyboard.press('Enter');
      // allauth's refusal, beside the field (a 400 the test provokes).
      await expect(passwordForm.getByText('Please type your current password.')).toBeVisible();
      await typeInto(page, passwordForm.getByLabel('Current password'), PASSWORD);
      await page.keyboard.press('Enter');
      await expect(page.getByText('Password changed')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
      await shot(page, `account-password-changed-${at}`);
      await axeScan(page, `settings account ${at}`);
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
      const downloaded = page.locator('.toast', { hasText: 'Your data was downloaded' });
      await expect(downloaded).toBeVisible();
      await shot(page, `account-data-downloaded-${at}`);

      // The deletion dialog, opened while that toast is up: the toast is drawn above its backdrop
      // and can be reached; Escape closes the dialog with focus back on its opener.
      const opener = account.getByRole('button', { name: 'Delete my account…' });
      await tabTo(page, opener);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await expect(dialog).toContainText('signing in before then cancels the deletion');
      await expect(dialog.getByLabel('Your password')).toBeFocused();
      await expect(dialog.getByRole('status')).toContainText('Your data was downloaded');
      expect(await onTop(downloaded), 'the toast is above the dialog’s backdrop').toBe(true);
      await shot(page, `account-delete-dialog-${at}`);
      await axeScan(page, `delete dialog ${at}`);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();

      // My reports, from settings.
      await tabTo(page, account.getByRole('link', { name: 'My reports' }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'My reports', level: 1 })).toBeVisible();
      const mine = page.getByRole('list', { name: 'Your reports' }).getByRole('article');
      await expect(mine).toHaveCount(1);
      await expect(mine).toContainText('Typo on');
      await expect(mine).toContainText('Received');
      await expect(mine).toContainText('No answer yet.');
      await shot(page, `account-my-reports-${at}`);
      await axeScan(page, `my reports ${at}`);
      await fitsTheScreen(page, 'my reports');

      // Delete the account, for real.
      await page.goto('/settings');
      await tabTo(page, opener);
      await page.keyboard.press('Enter');
      await expect(dialog.getByLabel('Your password')).toBeFocused();
      await page.keyboard.type(NEW_PASSWORD);
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('flash')).toContainText(/You are signed out\. Your account will be deleted on .+; signing in before then cancels it\./);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
      const session = await page.evaluate(async () => (await fetch('/api/v1/session')).json());
      expect(session.is_authenticated).toBe(false);
      await shot(page, `account-deleted-signed-out-${at}`);

      // Within the grace period, signing in keeps the account.
      await page.goto('/signin?next=%2Fsettings');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
      const me = await page.evaluate(async () => (await fetch('/api/v1/me/')).json());
      expect(me.deletion_requested_at).toBeNull();
    });

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
      await shot(page, `account-email-pending-${at}`);
      await axeScan(page, `settings e-mail pending ${at}`);

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
      await shot(page, `account-email-changed-${at}`);

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
}

test('not staying signed in: a password change signs out this device and the others', async ({ page, browser, watch }) => {
  // allauth answers 401 to the DELETE that signs out (a success, see web/README.md).
  watch.allow(/^401 .*\/_allauth\/browser\/v1\/auth\/session$/);
  const email = await signUp(page, 'leaver');
  const phone = await newContextPage(browser);
  await signIn(phone.page, email);

  await page.goto('/settings');
  const passwordForm = page.getByRole('region', { name: 'Account' }).getByRole('form', { name: 'Change password' });
  await typeInto(page, passwordForm.getByLabel('Current password'), PASSWORD);
  await page.keyboard.press('Tab');
  await page.keyboard.type(NEW_PASSWORD);
  await tabTo(page, passwordForm.getByRole('checkbox', { name: 'Stay signed in on this device' }));
  await page.keyboard.press('Space');
  await expect(passwordForm.getByRole('checkbox', { name: 'Stay signed in on this device' })).not.toBeChecked();
  await tabTo(page, passwordForm.getByRole('button', { name: 'Change password' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('flash')).toContainText('Password changed. You are signed out on every device, this one too.');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await shot(page, 'account-password-changed-signed-out');
  for (const each of [page, phone.page]) {
    const session = await each.evaluate(async () => (await fetch('/api/v1/session')).json());
    expect(session.is_authenticated).toBe(false);
  }
  await phone.context.close();
  expect(phone.watch.problems).toEqual([]);

  await page.goto('/signin');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});
