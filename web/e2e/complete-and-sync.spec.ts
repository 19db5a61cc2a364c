import { expect, header, lessonFile, passChecks, shot, signUp, test } from './fixtures';

const FIRST = 'embedding-geometry';
const SECOND = 'why-position-matters';

test('two lessons completed signed out, by their checks, are kept on the device, then synced on sign-up', async ({ page, watch }) => {
  void watch;
  await page.goto(`/lessons/${FIRST}`);
  await passChecks(page, FIRST);
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await expect(header(page).getByText('1/94 lessons')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Lesson complete!' })).toBeVisible();
  await shot(page, '03-first-lesson-completed-signed-out');

  await page.getByRole('link', { name: /Next: Why attention needs position information/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Why attention needs position information');
  await passChecks(page, SECOND);
  await expect(header(page).getByText('2/94 lessons')).toBeVisible();
  await shot(page, '04-second-lesson-completed-signed-out');

  // The device keeps the lessons it completed and the answers that completed them.
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('lp.progress.events') ?? '[]'));
  expect(stored.map((event: { lesson: string }) => event.lesson)).toEqual([FIRST, SECOND]);
  expect(stored[0]).toMatchObject({ type: 'lesson_completed' });
  const answers = await page.evaluate(() => JSON.parse(localStorage.getItem('lp.progress.checks') ?? '{}').answers ?? []);
  expect(answers.map((answer: { lesson: string }) => answer.lesson)).toEqual([
    ...lessonFile(FIRST).checks.map(() => FIRST),
    ...lessonFile(SECOND).checks.map(() => SECOND),
  ]);

  await page.goto('/quests/transformers');
  await expect(page.getByText('2/94 lessons')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'What lives in embedding space' })).toContainText('(completed)');
  await shot(page, '05-quest-outline-signed-out');

  await page.goto('/signup');
  await expect(page.getByText('The 2 lessons you completed on this device will be added to your new account.')).toBeVisible();
  await signUp(page, 'sync');
  // Handed over and cleared (the sync runs right after the sign-up answer): the answers, which
  // complete the lessons on the server, and the completions they make needless.
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('lp.progress.events') ?? '[]'))).toEqual([]);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lp.progress.checks'))).toBeNull();

  await page.goto(`/lessons/${FIRST}`);
  const bar = header(page);
  await expect(bar.getByText('2/94 lessons')).toBeVisible();
  await expect(bar).not.toContainText('Progress is local-only');
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await shot(page, '06-synced-after-sign-up');

  // The server's state, not the device's: the API says the same.
  const progress = await page.evaluate(async () => (await fetch('/api/v1/me/progress?quest=transformers')).json());
  expect(progress.completed_lessons).toEqual(expect.arrayContaining([FIRST, SECOND]));
  expect(progress.lessons_completed).toBe(2);
  // XP and achievements are the server's (it may add achievement bonuses the device cannot know).
  await expect(bar.locator('.progress-stats p').nth(1)).toHaveText(`${progress.xp} XP`);
  await expect(bar.getByText(`${progress.achievements_unlocked}/10 achievements`)).toBeVisible();
});
