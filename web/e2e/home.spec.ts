// Issue 21 as a new learner meets it: the home page before and after the first lessons, the
// achievements signed out, the welcome after sign-up, the e-mail confirmed, the home signed in.
import { baseURL } from '../playwright.config';
import { expect, lessonFile, linkFromMail, passChecks, PASSWORD, shot, test, uniqueEmail } from './fixtures';
import type { Page } from '@playwright/test';

async function at375(page: Page, name: string) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name}: no sideways scrolling at 375 px`).toBeLessThanOrEqual(0);
  await shot(page, name);
  if (size) await page.setViewportSize(size);
}

const card = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });

test('a new learner starts, continues, signs up with the lessons synced and confirms the e-mail', async ({ page, watch }) => {
  void watch;
  test.setTimeout(120_000);

  // A first visit: nothing done, one call to action.
  await page.goto('/');
  const start = page.getByRole('link', { name: 'Start the quest' });
  await expect(start).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('How transformer language models work');
  await expect(page.getByRole('heading', { level: 2, name: 'Quests' })).toBeVisible();
  await shot(page, '21-home-first-visit-desktop');
  await at375(page, '21-home-first-visit-375');

  // Two lessons signed out, from the call to action on.
  await start.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('What a language model actually does');
  await passChecks(page, 'what-is-a-language-model');
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await page.getByRole('link', { name: /Next: Generating text one token at a time/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Generating text one token at a time');
  await passChecks(page, 'next-token-prediction');
  await expect(page.getByText('✓ Completed')).toBeVisible();

  // Home: continue with the third lesson, 2 of 94 done.
  await page.getByRole('link', { name: 'Learning Platform' }).click();
  const next = page.getByRole('link', { name: 'Continue: From n-grams and RNNs to transformers' });
  await expect(next).toHaveAttribute('href', '/lessons/from-n-grams-to-transformers');
  await expect(page.getByRole('region', { name: 'Continue' })).toContainText('2% done · 2/94 lessons');
  await expect(page.getByRole('region', { name: 'Today' })).toContainText('Your progress is kept on this device.');
  await expect(page.getByRole('link', { name: 'Start the quest' })).toHaveCount(0);

  // Achievements: progress from this device where the rule allows.
  await page.getByRole('link', { name: 'See your progress toward them' }).click();
  await expect(card(page, 'First token')).toContainText('1 of 1 lesson');
  await expect(card(page, 'First token')).toContainText('Reached on this device: create an account to unlock it');
  await expect(card(page, 'Growing context window')).toContainText('2 of 10 lessons');
  await expect(card(page, 'Growing context window').getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');
  await expect(card(page, 'Warmed-up weights')).toContainText('60 of 500 XP');
  await expect(card(page, 'Halfway through the stack')).toContainText('2% of 50%');
  await expect(card(page, 'Tokenizer whisperer')).toContainText(/0 of \d+ lessons tagged tokenization/);
  await expect(card(page, 'Residual stream')).toContainText('Sign in to track');
  await shot(page, '21-achievements-signed-out');

  // Sign up: welcomed with the two lessons handed over, on the page the learner lands on.
  const email = uniqueEmail('home');
  await page.getByRole('link', { name: 'Sign up', exact: true }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  const flash = page.getByTestId('flash');
  await expect(flash).toHaveText('Welcome — 2 lessons synced from this device');
  await expect(flash).toHaveAttribute('role', 'status');
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByRole('link', { name: 'Continue: From n-grams and RNNs to transformers' })).toBeVisible();
  await shot(page, '21-welcome-synced');
  // Once: a reload does not say it again.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
  await expect(flash).toBeEmpty();

  // The e-mailed link confirms the address, and says so where the learner lands.
  const link = await linkFromMail(email, /https?:\/\/[^\s"<>]+\/account\/verify-email\/[^\s"<>]+/);
  await page.goto(link.slice(baseURL.length));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(flash).toHaveText('E-mail confirmed');
  await expect(page).toHaveURL(`${baseURL}/`);
  await shot(page, '21-email-confirmed');

  // Signed in: the server's progress, today's XP and streak, the achievement the sync brought.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Continue' })).toContainText('2% done · 2/94 lessons');
  const today = page.getByRole('region', { name: 'Today' });
  await expect(today.getByTestId('home-streak')).toHaveText('1-day streak · today is done');
  await expect(today).toContainText(/Today: \d+ XP\.|Daily goal: \d+ of \d+ XP/);
  const recent = page.getByRole('region', { name: 'Recent achievements' });
  // Among them (the checks the sync brought count as passes for "Loss goes down" too).
  await expect(recent.getByRole('listitem').filter({ hasText: 'First token' })).toBeVisible();
  await expect(recent.getByRole('link', { name: 'All achievements' })).toHaveAttribute('href', '/achievements');
  await shot(page, '21-home-signed-in-desktop');
  await at375(page, '21-home-signed-in-375');
});

test('on a lesson with an exercise, the checks passed are counted after the exercise, and there is no Mark complete', async ({ page, watch }) => {
  void watch;
  await page.goto('/lessons/embedding-dimension');
  const exercise = page.getByRole('region', { name: /Exercise: Read d_model/ });
  const status = page.locator('.checks-status');
  await expect(exercise).toBeVisible();
  await expect(status).toContainText(`0 of ${lessonFile('embedding-dimension').checks.length} checks passed`);
  await expect(page.getByRole('button', { name: 'Mark complete' })).toHaveCount(0);
  const exerciseBox = await exercise.boundingBox();
  const statusBox = await status.boundingBox();
  expect(statusBox!.y).toBeGreaterThan(exerciseBox!.y + exerciseBox!.height);
  // Report an issue stays beside it.
  const reportBox = await page.getByRole('button', { name: 'Report an issue' }).boundingBox();
  expect(Math.abs(reportBox!.y - statusBox!.y)).toBeLessThan(statusBox!.height);
});
