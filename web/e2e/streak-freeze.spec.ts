// A learner keeps a 7-day streak over a missed day with the freeze it earned, on a server whose
// clock the test sets: e2e/clock_server.py (test-only) runs Django on its own port and moves the
// process's clock, before each request, to the instant this spec writes in a file. The browser's
// clock is set to the same instant. The days before are built through the API with the
// learner's session (fast); what the learner sees at the end is checked in the browser.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, PASSWORD, shot, test, uniqueEmail, watchConsole } from './fixtures';

const web = join(import.meta.dirname, '..');
const repo = join(web, '..');
const runDir = join(web, '.e2e-run');
const clockFile = join(runDir, 'clock');
const ZONE = 'Europe/Berlin';

let server: ChildProcess | undefined;
let origin = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Sets the server's clock (from its next request on) and the page's. */
async function setClock(page: Page, instant: string) {
  writeFileSync(clockFile, instant);
  await page.clock.setFixedTime(new Date(instant));
}

/** Noon in Berlin (10:00 UTC in March) of 2026-03-`day`. */
const noon = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00Z`;

test.beforeAll(async () => {
  mkdirSync(runDir, { recursive: true });
  writeFileSync(clockFile, noon(2));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // The stack's environment (stack.mjs) minus Redis: tasks run in-process, on the fake clock,
  // and no worker or cache outside this process sees another time.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEBUG: '1',
    E2E_CLOCK_FILE: clockFile,
    EMAIL_URL: 'dummymail://',
    FRONTEND_URL: origin,
    PUBLIC_API_URL: origin,
    WEB_DIST_DIR: join(web, 'dist'),
    EMBEDDED_SCHEDULER: '0',
    PYTHONUNBUFFERED: '1',
  };
  for (const name of ['REDIS_URL', 'CACHE_URL', 'BROKER_URL', 'LEADERBOARD_REDIS_URL']) delete env[name];
  server = spawn(join(repo, '.venv', 'bin', 'python'), [join(web, 'e2e', 'clock_server.py'), `127.0.0.1:${port}`], {
    cwd: repo,
    env,
    stdio: 'inherit',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${origin}/readyz`).then((answer) => answer.status === 200, () => false);
    if (ready) break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the clock server did not start on ${origin}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(() => {
  if (server?.exitCode === null) server.kill('SIGTERM');
});

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
  const lessons: string[] = quest.lessons.map((lesson: { slug: string }) => lesson.slug);

  // A lesson a day, Monday 2 to Sunday 8 March: a 7-day run, which earns a freeze.
  for (let day = 2; day <= 8; day += 1) {
    writeFileSync(clockFile, noon(day));
    const done = await page.request.post(`/api/v1/lessons/${lessons[day]}/complete`, { headers: await csrf() });
    expect(done.status(), await done.text()).toBe(201);
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
  await page.getByRole('button', { name: 'Mark complete' }).click();
  await expect(page.getByText('Lesson complete')).toBeVisible();
  // The day's 30 XP meets the 20 XP goal: celebrated beside the completion.
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
