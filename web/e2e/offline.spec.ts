// Lessons a learner opened open again with no network (the service worker's copies), and a
// lesson's checks answered offline wait for the network: once it is back they are graded, and
// the lesson they complete is kept on the device (signed out) or on the account (signed in).
import type { Page } from '@playwright/test';
import { checkCard, expect, fillAnswer, header, lessonFile, rightAnswer, shot, signUp, test, watchConsole } from './fixtures';

// The other specs block service workers (playwright.config.ts): they mock requests with
// page.route, which a worker answering from its cache would get in the way of.
test.use({ serviceWorkers: 'allow' });

const FIRST = { slug: 'embedding-geometry', title: /embedding space/ };
const SECOND = { slug: 'why-position-matters', title: /needs position information/ };

/** Failed requests offline (the comments, the reads not kept) are what the test provokes. */
function watchOffline(page: Page) {
  const watch = watchConsole(page);
  return () => watch.problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR_FAILED/.test(problem));
}

/**
 * Waits until the service worker controls the page, so the reads after it are kept. The worker
 * registers once a page has loaded and claims the open pages when it activates; a page whose
 * load raced that activation (signed in, the worker registered on the sign-up page just before)
 * can stay uncontrolled, which the next load is not: then it is loaded again.
 */
async function controlledByServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const controlled = () => page.evaluate(() => Boolean(navigator.serviceWorker.controller));
  await expect.poll(controlled, { timeout: 5_000 }).toBe(true).catch(() => page.reload());
  await expect.poll(controlled, { timeout: 20_000 }).toBe(true);
}

/** Opens FIRST (installing the service worker), then SECOND by its link. */
async function openTwoLessons(page: Page) {
  await page.goto(`/lessons/${FIRST.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(FIRST.title);
  await controlledByServiceWorker(page);
  await page.getByRole('link', { name: /Next: Why attention needs position information/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(SECOND.title);
  // The header's reads are in too: the outline, the level curve.
  await expect(header(page)).toContainText('/94 lessons');
}

/**
 * Answers every check of the open lesson right with no network: each answer waits, saying so,
 * for the network to come back.
 */
async function answerOffline(page: Page, slug: string) {
  const { checks } = lessonFile(slug);
  for (const [index, check] of checks.entries()) {
    const card = checkCard(page, index + 1, checks.length);
    await fillAnswer(card, check, rightAnswer(check));
    await card.getByRole('button', { name: 'Check answer' }).click();
    await expect(card.getByRole('status').filter({ hasText: 'You are offline: your answer is checked when you are back online.' })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Checking…' })).toBeDisabled();
  }
}

/** Back online, each waiting answer is graded: every check passed. */
async function expectGradedBackOnline(page: Page, slug: string) {
  const { checks } = lessonFile(slug);
  for (const [index] of checks.entries()) {
    await expect(checkCard(page, index + 1, checks.length).locator('.check-result.right')).toBeVisible();
  }
}

async function expectOfflineLesson(page: Page, lesson: { title: RegExp }) {
  await expect(page.getByRole('heading', { level: 1 })).toContainText(lesson.title);
  await expect(page.getByRole('status').filter({ hasText: 'Offline — showing the copy saved on this device' })).toBeVisible();
  // The lesson's prose, not only its title.
  await expect(page.locator('.lesson-part').first()).toBeVisible();
}

test('signed out: two lessons open offline; the checks answered offline are graded when the network is back, and the lesson is kept', async ({
  page,
  context,
}) => {
  const problems = watchOffline(page);
  await openTwoLessons(page);

  await context.setOffline(true);
  await page.reload();
  await expectOfflineLesson(page, SECOND);
  // A lesson never opened on this device says so at once, not an endless spinner.
  await page.goto('/lessons/alibi');
  await expect(page.getByRole('heading', { level: 1, name: 'This lesson is not on this device yet' })).toBeVisible();
  await shot(page, '40-offline-lesson-never-opened');
  await page.goto(`/lessons/${FIRST.slug}`);
  await expectOfflineLesson(page, FIRST);

  await answerOffline(page, FIRST.slug);
  await expect(header(page).getByText('0/94 lessons')).toBeVisible();
  await shot(page, '40-offline-lesson-signed-out');

  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toHaveCount(0);
  await expectGradedBackOnline(page, FIRST.slug);
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await expect(header(page).getByText('1/94 lessons')).toBeVisible();
  await page.reload();
  await expect(page.getByText('✓ Completed')).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('lp.progress.events') ?? '[]'));
  expect(stored.map((event: { lesson: string }) => event.lesson)).toEqual([FIRST.slug]);
  expect(problems()).toEqual([]);
});

test('signed in: the checks answered offline are graded when the network is back, completing the lesson on the account', async ({ page, context }) => {
  const problems = watchOffline(page);
  await signUp(page, 'offline');
  await openTwoLessons(page);

  await context.setOffline(true);
  await page.reload();
  await expectOfflineLesson(page, SECOND);
  // Still signed in: the session is the worker's copy.
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await page.goto(`/lessons/${FIRST.slug}`);
  await expectOfflineLesson(page, FIRST);

  await answerOffline(page, FIRST.slug);
  await shot(page, '41-offline-lesson-signed-in');

  // Back online: the app sends the answers by itself, and the header shows the server's count.
  await context.setOffline(false);
  await expectGradedBackOnline(page, FIRST.slug);
  await expect(header(page).getByText('1/94 lessons')).toBeVisible();
  const answer = await page.request.get('/api/v1/me/progress?quest=transformers');
  const progress = await answer.json();
  expect(progress.completed_lessons).toEqual([FIRST.slug]);
  await expect(header(page).locator('.progress-stats p').nth(1)).toHaveText(`${progress.xp} XP`);
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await shot(page, '42-offline-completion-synced');
  expect(problems()).toEqual([]);
});
