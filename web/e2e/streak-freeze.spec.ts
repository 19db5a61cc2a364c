// A learner keeps a 7-day streak over a missed day with the freeze it earned, on a server whose
// clock the test sets (e2e/clock.ts); the browser's clock is set to the same instant. The days
// before are built through the API with the learner's session (fast: each day's lesson
// completed by its checks answered right); what the learner sees at the end is checked in the
// browser.
import type { Page } from '@playwright/test';
import { startClockServer, type ClockServer } from './clock';
import { expect, lessonFile, passChecks, passChecksByApi, PASSWORD, shot, test, uniqueEmail, watchConsole } from './fixtures';

const ZONE = 'Europe/Berlin';

let clock: ClockServer;
let origin = '';

/** Sets the server's clock (from its next request on) and the page's. */
const setClock = (page: Page, instant: string) => clock.setClock(page, instant);

/** Noon in Berlin (10:00 UTC in March) of 2026-03-`day`. */
const noon = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00Z`;

test.beforeAll(async () => {
  clock = await startClockServer('streak-freeze', noon(2));
  origin = clock.origin;
});

test.afterAll(() => clock?.stop());

test('a 7-day streak earns a freeze; a missed day uses it and the streak is kept', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: origin, timezoneId: ZONE });
  const page = await context.newPage();
  const watch = watchConsole(page);

  // Monday 2 March: sign up, choose a goal of 20 XP.
  await setClock(page, noon(2));
  await page.goto('/signup');
  await page.getByLabel('E-mail').fill(uniqueEmail('freeze'));
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const csrf = async () => ({ 'X-CSRFToken': (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '' });
  const goal = await page.request.put('/api/v1/me/daily-goal', { data: { xp: 20 }, headers: await csrf() });
  expect(goal.status(), await goal.text()).toBe(200);
  const quest = await (await page.request.get('/api/v1/quests/transformers/')).json();
  // Lessons their checks complete (a lesson with a table exercise needs the exercise too).
  const lessons: string[] = quest.lessons.map((lesson: { slug: string }) => lesson.slug).filter((slug: string) => !lessonFile(slug).exercise);

  // A lesson a day, Monday 2 to Sunday 8 March: a 7-day run, which earns a freeze.
  for (let day = 2; day <= 8; day += 1) {
    clock.setServerClock(noon(day));
    const last = await passChecksByApi(page, lessons[day]);
    expect(last.lesson, lessons[day]).toMatchObject({ complete: true, completed_now: true });
  }
  const afterWeek = await (await page.request.get('/api/v1/me/progress')).json();
  expect(afterWeek.streak).toEqual({ current: 7, best: 7, today: 'done', freezes: 1 });

  // Monday 9 March: nothing. Tuesday 10 March the learner comes back: the freeze covers Monday.
  await setClock(page, noon(10));
  await page.goto('/progress');
  const streak = page.getByRole('region', { name: 'Streak' });
  await expect(streak).toContainText('7 days');
  await expect(streak).toContainText('You missed a day, and a streak freeze covers it');
  await expect(streak).toContainText('1 of 2 streak freezes held');
  await shot(page, '21-freeze-pending');

  await page.goto(`/lessons/${lessons[10]}`);
  await passChecks(page, lessons[10]);
  await expect(page.getByRole('heading', { name: 'Lesson complete!' })).toBeVisible();
  // The day's XP meets the 20 XP goal: celebrated beside the completion.
  await expect(page.locator('.toasts').getByText('Daily goal reached')).toBeVisible();
  const dismiss = page.getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();

  await page.getByRole('link', { name: 'Progress' }).click();
  await expect(page.getByRole('region', { name: 'Today’s goal' })).toContainText('Goal met');
  await expect(streak).toContainText('8 days · best 8 days');
  await expect(streak).toContainText('Today: done');
  await expect(streak).toContainText('0 of 2 streak freezes held');
  const table = page.getByRole('table', { name: /Activity in the last 12 weeks/ });
  await expect(table.getByRole('cell', { name: 'Mon 9 Mar: frozen (a streak freeze covered it)' })).toHaveClass(/heat-frozen/);
  await expect(table.getByRole('cell', { name: /^Sun 8 Mar: \d+ XP, goal met$/ })).toBeVisible();
  await expect(table.getByRole('cell', { name: /^Tue 10 Mar: \d+ XP, goal met, today$/ })).toHaveClass(/heat-today/);
  await expect(page.getByText(/Active on 8 of the last 84 days · goal met on 8 · 1 day frozen/)).toBeVisible();
  await expect(page.getByText(`Days in your time zone, Berlin (Europe).`)).toBeVisible();
  await shot(page, '21-freeze-kept');

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(table).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'no sideways scrolling at 375 px').toBeLessThanOrEqual(0);
  await shot(page, '21-freeze-kept-375');

  await context.close();
  expect(watch.problems, 'console errors').toEqual([]);
});
