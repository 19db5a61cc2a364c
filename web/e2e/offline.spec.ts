// Lessons a learner opened open again with no network (the service worker's copies), and a
// lesson completed offline is kept on the device, then synced when the network is back.
import type { Page } from '@playwright/test';
import { expect, header, shot, signUp, test, watchConsole } from './fixtures';

// The other specs block service workers (playwright.config.ts): they mock requests with
// page.route, which a worker answering from its cache would get in the way of.
test.use({ serviceWorkers: 'allow' });

const FIRST = { slug: 'embedding-dimension', title: /Embedding dimension/ };
const SECOND = { slug: 'embedding-geometry', title: /embedding space/ };

/** Failed requests offline (the comments, the completion's POST) are what the test provokes. */
function watchOffline(page: Page) {
  const watch = watchConsole(page);
  return () => watch.problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR_FAILED/.test(problem));
}

/** Waits until the service worker controls the page, so the reads after it are kept. */
async function controlledByServiceWorker(page: Page) {
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 20_000 }).toBe(true);
}

/** Opens FIRST (installing the service worker), then SECOND by its link. */
async function openTwoLessons(page: Page) {
  await page.goto(`/lessons/${FIRST.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(FIRST.title);
  await controlledByServiceWorker(page);
  await page.getByRole('link', { name: /Next: What lives in embedding space/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('embedding space');
  // The header's reads are in too: the outline, the level curve.
  await expect(header(page)).toContainText('/94 lessons');
}

async function expectOfflineLesson(page: Page, lesson: { title: RegExp }) {
  await expect(page.getByRole('heading', { level: 1 })).toContainText(lesson.title);
  await expect(page.getByRole('status').filter({ hasText: 'Offline — showing the copy saved on this device' })).toBeVisible();
  // The lesson's prose, not only its title.
  await expect(page.locator('.lesson-part').first()).toBeVisible();
}

test('signed out: two lessons open offline, and one completed offline is kept', async ({ page, context }) => {
  const problems = watchOffline(page);
  await openTwoLessons(page);

  await context.setOffline(true);
  await page.reload();
  await expectOfflineLesson(page, SECOND);
  await page.goto(`/lessons/${FIRST.slug}`);
  await expectOfflineLesson(page, FIRST);

  await page.getByRole('button', { name: 'Mark complete' }).click();
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await expect(header(page).getByText('1/94 lessons')).toBeVisible();
  await shot(page, '40-offline-lesson-signed-out');

  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('✓ Completed')).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('lp.progress.events') ?? '[]'));
  expect(stored.map((event: { lesson: string }) => event.lesson)).toEqual([FIRST.slug]);
  expect(problems()).toEqual([]);
});

test('signed in: a lesson completed offline syncs to the account when the network is back', async ({ page, context }) => {
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

  await page.getByRole('button', { name: 'Mark complete' }).click();
  await expect(page.getByText('Saved on this device', { exact: true })).toBeVisible();
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await shot(page, '41-offline-lesson-signed-in');
  const pending = await page.evaluate(() => JSON.parse(localStorage.getItem('lp.progress.events') ?? '[]'));
  expect(pending.map((event: { lesson: string }) => event.lesson)).toEqual([FIRST.slug]);

  // Back online: the app sends the event by itself, and the header shows the server's count.
  await context.setOffline(false);
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('lp.progress.events') ?? '[]').length)).toBe(0);
  await expect(header(page).getByText('1/94 lessons')).toBeVisible();
  const answer = await page.request.get('/api/v1/me/progress?quest=transformers');
  const progress = await answer.json();
  expect(progress.completed_lessons).toEqual([FIRST.slug]);
  await expect(header(page).locator('.progress-stats p').nth(1)).toHaveText(`${progress.xp} XP`);
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await shot(page, '42-offline-completion-synced');
  expect(problems()).toEqual([]);
});
