// Issue 21, the game a learner feels: a new learner completes lessons until a level-up and an
// achievement (celebrated once, announced, at desktop and 375 px), sets a daily goal and meets it,
// and the level-up dialog opens promptly after the "Check answer" click that earns it (the figure
// is printed). Lessons are completed by answering their checks right.
import type { Page } from '@playwright/test';
import { checkCard, expect, fillAnswer, lessonFile, passChecks, rightAnswer, shot, signUp, submitAnswer, test } from './fixtures';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };

interface Progress {
  xp: number;
  level: { number: number; name: string };
  daily_goal: { xp: number | null; xp_today: number; met: boolean };
}

const progressNow = (page: Page): Promise<Progress> => page.evaluate(async () => (await fetch('/api/v1/me/progress')).json());

async function fitsTheScreen(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what}: no horizontal scrolling at ${page.viewportSize()?.width} px`).toBeLessThanOrEqual(0);
}

/**
 * Times, inside the page, the last "Check answer" click (a capturing listener) to the frame that
 * paints the level-up dialog (a MutationObserver sees it open, then requestAnimationFrame).
 */
async function timeTheLevelUp(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __clickAt?: number; __dialogAt?: number };
    document.addEventListener(
      'click',
      (event) => {
        if ((event.target as HTMLElement).closest('button')?.textContent === 'Check answer') w.__clickAt = performance.now();
      },
      true,
    );
    let opened = false;
    const seen = () => {
      if (opened || !document.querySelector('dialog.level-up[open]')) return;
      opened = true;
      // The next frame is the one that paints the open dialog.
      requestAnimationFrame(() => (w.__dialogAt = performance.now()));
    };
    new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] });
  });
}

test('a new learner levels up, unlocks an achievement and meets a daily goal, each celebrated once', async ({ page, watch }) => {
  void watch;
  // A dozen lessons' checks answered one by one on a loaded 2-core machine.
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  await signUp(page, 'game');
  const quest = await page.evaluate(async () => (await fetch('/api/v1/quests/transformers/')).json());
  const lessons: { slug: string; xp: number }[] = quest.lessons;

  // The first completion: "First token", announced in the live region with what earned it.
  await page.goto(`/lessons/${lessons[0].slug}`);
  const bar = page.getByRole('region', { name: 'Your game' });
  await expect(bar.getByText('Level 0 · Token')).toBeAttached();
  await expect(bar).toContainText('0 XP');
  await passChecks(page, lessons[0].slug);
  const live = page.locator('.toasts[role="status"][aria-live="polite"]');
  const toast = live.locator('.toast').filter({ hasText: 'Achievement unlocked: First token' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Complete your first lesson.');
  // The lesson's XP, paid by its checks, and the achievement's bonus: the server's figure.
  const first = await progressNow(page);
  expect(first.xp).toBeGreaterThanOrEqual(lessons[0].xp);
  await expect(bar).toContainText(`${first.xp} XP`);

  // Asked once for a daily goal: pick one the learner has not met yet today.
  const prompt = page.getByRole('dialog', { name: 'Set a daily goal?' });
  await expect(prompt).toBeVisible();
  const today = (await progressNow(page)).daily_goal.xp_today;
  const goal = [10, 20, 30, 50].find((xp) => xp > today) ?? 50;
  await prompt.getByRole('radio', { name: new RegExp(`^${goal} XP a day`) }).check();
  await prompt.getByRole('button', { name: 'Set goal' }).click();
  await expect(prompt).toBeHidden();
  await expect(bar.getByTestId('game-goal')).toContainText(`${today}/${goal} XP today`);
  await shot(page, '21-achievement-toast-desktop');
  await page.setViewportSize(PHONE);
  await expect(toast).toBeVisible();
  await fitsTheScreen(page, 'achievement toast');
  await shot(page, '21-achievement-toast-375');
  await expect(bar).toContainText(`Lv 0`);
  await expect(bar.getByText(/1-day streak, today done/)).toBeAttached();
  await fitsTheScreen(page, 'top bar');
  await shot(page, '21-top-bar-375');
  await page.setViewportSize(DESKTOP);

  // More lessons until the goal is met and the level goes up, each check answered on the page:
  // the answer that crosses a level's line opens the dialog, wherever it is in the lesson.
  let levelledUp = false;
  let goalMet = false;
  const dialog = page.getByRole('dialog', { name: 'Level up!' });
  // A lesson with a table exercise is completed by the exercise too: not one of these.
  for (const lesson of lessons.slice(1, 13).filter((each) => !lessonFile(each.slug).exercise)) {
    if (levelledUp && goalMet) break;
    await page.goto(`/lessons/${lesson.slug}`);
    await expect(bar).toContainText('XP');
    await timeTheLevelUp(page);
    const { checks } = lessonFile(lesson.slug);
    for (const [index, check] of checks.entries()) {
      const card = checkCard(page, index + 1, checks.length);
      await fillAnswer(card, check, rightAnswer(check));
      await submitAnswer(page, card, 'right');
      const after = await progressNow(page);
      if (!levelledUp && after.level.number >= 1) {
        levelledUp = true;
        await expect(dialog).toBeVisible();
        await expect.poll(() => page.evaluate(() => (window as unknown as { __dialogAt?: number }).__dialogAt)).toBeDefined();
        const timing = await page.evaluate(() => {
          const w = window as unknown as { __clickAt?: number; __dialogAt?: number };
          const clickAt = w.__clickAt ?? 0;
          const dialogAt = w.__dialogAt ?? Infinity;
          // The requests between the click and the dialog: the answer's POST, then the
          // progress the dialog is read from.
          const between = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
            (entry) => entry.startTime >= clickAt && entry.responseEnd <= dialogAt,
          );
          const last = (suffix: RegExp) => between.filter((entry) => suffix.test(entry.name)).at(-1)?.duration ?? 0;
          return { ms: dialogAt - clickAt, post: last(/\/answers$/), progress: last(/\/me\/progress(\?|$)/) };
        });
        console.log(
          `Check answer click to level-up dialog: ${timing.ms.toFixed(1)} ms (of which the POST …/answers round trip: ${timing.post.toFixed(1)} ms, ` +
            `GET /me/progress: ${timing.progress.toFixed(1)} ms)`,
        );
        // The figure is printed for the record. The guard is on the app's own share: the
        // round trips say nothing about the app on a CI machine busy elsewhere.
        expect(timing.ms - timing.post - timing.progress).toBeLessThan(300);
        await expect(dialog).toHaveAccessibleName('Level up!');
        await expect(dialog.getByTestId('level-up-name')).toHaveText(`Level ${after.level.number} · ${after.level.name}`);
        await expect(dialog).toContainText(/\d+ XP to Level \d+ · /);
        await expect(dialog.getByRole('button', { name: 'Continue' })).toBeFocused();
        await shot(page, '21-level-up-desktop');
        await page.setViewportSize(PHONE);
        await fitsTheScreen(page, 'level-up dialog');
        await shot(page, '21-level-up-375');
        await page.setViewportSize(DESKTOP);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await expect(bar.getByText(`Level ${after.level.number} · ${after.level.name}`)).toBeAttached();
      } else {
        await expect(dialog).toHaveCount(0);
      }
      if (!goalMet && after.daily_goal.met) {
        goalMet = true;
        await expect(live.getByText('Daily goal reached')).toBeVisible();
        await expect(bar.getByTestId('game-goal')).toHaveClass(/goal-met/);
        await expect(bar.getByText(', daily goal reached')).toBeAttached();
        await shot(page, '21-goal-met');
      }
    }
    await expect(page.getByText('✓ Completed')).toBeVisible();
  }
  expect(levelledUp, 'a level-up within 12 lessons').toBe(true);
  expect(goalMet, 'the daily goal met').toBe(true);

  // Shown once: a reload celebrates nothing again and asks for no goal.
  await page.reload();
  await expect(bar).toContainText('XP today');
  await page.waitForTimeout(500);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(live.locator('.toast')).toHaveCount(0);
});

test('signed out, the top bar counts this device’s lessons and points to sign-up for a goal; signing up celebrates what the sync brings', async ({
  page,
  watch,
}) => {
  void watch;
  await page.setViewportSize(PHONE);
  await page.goto('/lessons/token-embeddings');
  const bar = page.getByRole('region', { name: 'Your game' });
  await expect(bar).toContainText('0 XP');
  await passChecks(page, 'token-embeddings');
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await expect(bar.getByText('1-day streak, today done')).toBeAttached();
  await expect(bar).toContainText(/[1-9]\d* XP today/);
  await expect(bar.getByRole('link', { name: 'Daily goal: sign up to set one' })).toHaveAttribute('href', '/signup');
  await fitsTheScreen(page, 'signed-out top bar');
  await shot(page, '21-top-bar-signed-out-375');

  // The sign-up hands the lesson over; the server then awards "First token", celebrated once.
  await signUp(page, 'game-sync');
  const toast = page.locator('.toasts[aria-live="polite"] .toast').filter({ hasText: 'Achievement unlocked: First token' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Complete your first lesson.');
  await expect(bar.getByText(/1-day streak/)).toBeAttached();
  await page.reload();
  await expect(bar).toContainText('XP today');
  await page.waitForTimeout(500);
  await expect(page.locator('.toasts .toast')).toHaveCount(0);
});
