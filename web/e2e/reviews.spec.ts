// Spaced review, on a server whose clock the test moves (e2e/clock.ts): a learner misses a check
// in its lesson; the next day the card is due ("1 to review" in the top bar and on the home
// page), and the learner reviews it at 375 px with the keyboard alone: the answer typed, checked,
// celebrated with its XP, the session finished. The daily goal and the streak count the review's
// XP, and the empty queue says when the next card comes due. axe finds nothing serious or
// critical on the Review page.
import type { Page } from '@playwright/test';
import { startClockServer, type ClockServer } from './clock';
import {
  axeScan,
  checkCard,
  expect,
  fillAnswer,
  lessonAppReady,
  lessonFile,
  passChecksByApi,
  PASSWORD,
  shot,
  submitAnswer,
  tabTo,
  test,
  uniqueEmail,
  watchConsole,
  wrongAnswer,
} from './fixtures';

const SLUG = 'transformer-at-a-glance';
const lesson = lessonFile(SLUG);
const TOTAL = lesson.checks.length;
const MISSED = lesson.checks[TOTAL - 1];
const ZONE = 'Europe/Berlin';
// Monday 2 March 2026, 15:00 UTC (16:00 in Berlin), and the same time the next day: a missed
// check comes back a day after it was answered.
const MONDAY = '2026-03-02T15:00:00Z';
const TUESDAY = '2026-03-03T15:30:00Z';

let clock: ClockServer;

test.beforeAll(async () => {
  expect(MISSED.type).toBe('numeric');
  clock = await startClockServer('reviews', MONDAY);
});

test.afterAll(() => clock?.stop());

async function fitsTheScreen(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what}: no sideways scrolling at ${page.viewportSize()?.width} px`).toBeLessThanOrEqual(0);
}

async function progress(page: Page) {
  const response = await page.request.get('/api/v1/me/progress');
  expect(response.status()).toBe(200);
  return (await response.json()) as { daily_goal: { xp: number; xp_today: number }; streak: { current: number; today: string } };
}

test('a missed check comes due the next day and is reviewed at 375 px by keyboard; goal and streak count it', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: clock.origin, timezoneId: ZONE });
  const page = await context.newPage();
  const watch = watchConsole(page);

  // Monday: sign up with a goal of 10 XP a day; two checks answered right, the last one missed.
  await clock.setClock(page, MONDAY);
  await page.goto('/signup');
  await page.getByLabel('E-mail').fill(uniqueEmail('reviews'));
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const csrf = { 'X-CSRFToken': (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '' };
  const goal = await page.request.put('/api/v1/me/daily-goal', { data: { xp: 10 }, headers: csrf });
  expect(goal.status(), await goal.text()).toBe(200);
  await passChecksByApi(page, SLUG, TOTAL - 1);
  await page.goto(`/lessons/${SLUG}`);
  await lessonAppReady(page);
  const card = checkCard(page, TOTAL, TOTAL);
  await fillAnswer(card, MISSED, wrongAnswer(MISSED).answer);
  await submitAnswer(page, card, 'wrong');
  const monday = await progress(page);
  expect(monday.streak).toMatchObject({ current: 1, today: 'done' });
  // Nothing is due yet: the top bar says "Review", the missed card waits for tomorrow.
  await expect(page.getByTestId('review-link')).toHaveText('Review');

  // Tuesday, at 375 px: the missed card is due, said in the top bar and on the home page.
  await page.setViewportSize({ width: 375, height: 812 });
  await clock.setClock(page, TUESDAY);
  await page.goto('/');
  await expect(page.getByTestId('review-link')).toHaveText('1 to review');
  await expect(page.getByTestId('home-review-count')).toHaveText(/^1 to review/);
  const before = await progress(page);
  expect(before.daily_goal.xp_today).toBe(0);
  expect(before.streak).toMatchObject({ current: 1, today: 'to_do' });
  await fitsTheScreen(page, 'home');
  await shot(page, '37-review-due-375');

  // The keyboard alone from here: Tab to the top bar's link, the answer typed, Enter.
  await tabTo(page, page.getByTestId('review-link'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/review$/);
  const review = page.getByTestId('review-card');
  await expect(review.getByRole('heading', { name: 'Card 1 of 1' })).toBeVisible();
  await expect(review.getByRole('link', { name: 'A map of the decoder-only transformer' })).toBeVisible();
  await fitsTheScreen(page, 'review card');
  await axeScan(page, 'review card');
  await shot(page, '37-review-card-375');

  const input = review.getByLabel('Your answer');
  await tabTo(page, input);
  await page.keyboard.type(MISSED.answer!);
  await expect(input).toHaveValue(MISSED.answer!);
  const graded = page.waitForResponse((response) => response.request().method() === 'POST' && /\/api\/v1\/me\/reviews\/\d+\/answers$/.test(response.url()));
  await tabTo(page, review.getByRole('button', { name: 'Check answer' }));
  await page.keyboard.press('Enter');
  const result = await graded;
  expect(result.status()).toBe(200);
  const body = (await result.json()) as { correct: boolean; scheduled: boolean; xp_awarded: number; due: string };
  expect(body).toMatchObject({ correct: true, scheduled: true, xp_awarded: 2 });
  expect(new Date(body.due).getTime()).toBeGreaterThan(new Date(TUESDAY).getTime() + 24 * 3600 * 1000);
  const verdict = review.locator('.check-result.right');
  await expect(verdict.locator('.check-verdict')).toHaveText(/Right! \+2 XP/);
  await expect(verdict).toContainText('Next time:');
  // The focus moves to "Finish": Enter ends the session.
  const finish = review.getByRole('button', { name: 'Finish' });
  await expect(finish).toBeFocused();
  await fitsTheScreen(page, 'review answered');
  await shot(page, '37-review-right-375');
  await page.keyboard.press('Enter');
  const done = page.getByRole('heading', { name: 'Review done' });
  await expect(done).toBeFocused();
  await expect(page.getByTestId('review-score')).toHaveText('1 of 1 right · +2 XP');
  await expect(page.getByTestId('review-link')).toHaveText('Review');

  // "Check for more": the queue is empty and says when the next card comes due.
  await tabTo(page, page.getByRole('button', { name: 'Check for more' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Nothing to review' })).toBeVisible();
  await expect(page.getByTestId('review-next')).toHaveText(/^You are up to date\. The next card is due .+\.$/);
  await fitsTheScreen(page, 'empty queue');
  await axeScan(page, 'empty queue');
  await shot(page, '37-review-empty-375');

  // The review's XP counts toward the daily goal and keeps the streak going.
  const after = await progress(page);
  expect(after.daily_goal).toMatchObject({ xp: 10, xp_today: 2 });
  expect(after.streak).toMatchObject({ current: 2, today: 'done' });
  await page.goto('/progress');
  await expect(page.getByRole('region', { name: 'Today’s goal' })).toContainText('2 XP');
  await expect(page.getByRole('region', { name: 'Today’s goal' })).toContainText('8 XP to go today.');
  await expect(page.getByRole('region', { name: 'Streak' })).toContainText('2 days');
  await expect(page.getByRole('region', { name: 'Streak' })).toContainText('Today: done');
  await fitsTheScreen(page, 'progress');
  await shot(page, '37-review-progress-375');

  await context.close();
  expect(watch.problems, 'console errors').toEqual([]);
});
