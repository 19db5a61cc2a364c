// Issue 40, a phone that feels like an app, walked at 375 and at 1280 px: the top bar one row
// that stays in reach and the main places in a bottom bar on the phone (the desktop's row of
// links unchanged), a wide table scrolling inside its box with a hint, icons drawn rather than
// emoji. axe scans each page. The slow phone's figure is e2e/slow-phone.spec.ts's.
import type { Locator, Page } from '@playwright/test';
import { join } from 'node:path';
import { artifacts, axeScan, expect, shot, signUp, test } from './fixtures';

// The lesson whose table is the widest at 375 px (231 px wider than its box, measured on every lesson).
const WIDE_TABLE_LESSON = '/lessons/architecture-families';
const WIDE_TABLE = 'The three arrangements';
const LESSON = '/lessons/embedding-dimension';

type Box = { x: number; y: number; width: number; height: number };
const box = async (locator: Locator): Promise<Box> => (await locator.boundingBox())!;

/** The document is never wider than the screen: what is wide scrolls inside its own box. */
async function fitsTheScreen(page: Page, what: string) {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
  expect(scroll, `${what}: the page scrolls sideways`).toBeLessThanOrEqual(inner);
}

/** No emoji in what the page shows: its icons are SVG (components/Icon.tsx). */
async function noEmojiShown(page: Page, what: string) {
  const text = await page.evaluate(() => document.body.innerText);
  expect(text.match(/[\p{Extended_Pictographic}\u{FE0F}]/gu) ?? [], `${what}: emoji on the page`).toEqual([]);
}

for (const width of [375, 1280]) {
  const phone = width <= 480;
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: phone ? 667 : 800 } });

    test('the top bar and the main places', async ({ page, watch }) => {
      void watch;
      const topbar = page.locator('header.topbar');
      const places = page.getByRole('navigation', { name: 'Main' });
      await page.goto(LESSON);
      await expect(page.getByTestId('game-bar')).toBeVisible();
      const top = await box(topbar);
      const bar = await box(places);
      if (phone) {
        // One row, at most 52 px; the places at the bottom of the screen, each with its icon.
        expect(top.height, 'the top bar is one row').toBeLessThanOrEqual(52);
        expect(bar.y + bar.height).toBeCloseTo(667, 0);
        for (const name of ['Home', 'Achievements', 'Leaderboard', 'Sign in', 'Sign up']) {
          await expect(places.getByRole('link', { name, exact: true }).locator('svg.icon')).toBeVisible();
        }
      } else {
        // Desktop unchanged: the links in the top bar, beside the brand, no bottom bar.
        expect(bar.y + bar.height).toBeLessThanOrEqual(top.y + top.height);
        await expect(page.getByRole('link', { name: 'Learning Platform' })).toBeVisible();
        await expect(places.getByRole('link', { name: 'Home' })).toBeHidden();
      }
      // The screen as the learner sees it (a full-page shot draws the fixed bar mid-page).
      await page.screenshot({ path: join(artifacts, `i40-${width}-topbar-signed-out-screen.png`) });

      // Scrolled to the end: on a phone the top bar is still there and the bar covers nothing.
      // (Polled: the exercise and comments load once the page is idle and lengthen it.)
      const scrolledToTheEnd = () =>
        page.evaluate(() => {
          window.scrollTo(0, document.scrollingElement!.scrollHeight);
          const end = document.querySelector('main > :last-child')!.getBoundingClientRect().bottom;
          const bar = document.querySelector('nav.places')!.getBoundingClientRect().top;
          return { top: document.querySelector('header.topbar')!.getBoundingClientRect().top, uncovered: bar - end };
        });
      if (phone) {
        await expect.poll(async () => (await scrolledToTheEnd()).uncovered, { message: 'the page ends above the bottom bar' }).toBeGreaterThanOrEqual(-1);
        expect((await scrolledToTheEnd()).top, 'the top bar stays in reach').toBe(0);
      }
      await shot(page, `i40-${width}-scrolled-to-the-end`);
      await axeScan(page, `i40 lesson at ${width} px`);

      await signUp(page, `phone-app-${width}`);
      await page.goto(LESSON);
      await expect(places.getByTestId('review-link')).toBeVisible();
      await expect(page.getByTestId('game-bar')).toBeVisible();
      // Signed in, Sign out joins the row: still one.
      if (phone) expect((await box(topbar)).height, 'the top bar is one row, signed in').toBeLessThanOrEqual(52);
      await expect(places.getByRole('link', { name: /^Notifications, \d+ unread$/ })).toBeVisible();
      if (phone) {
        // The other places behind More: a menu over the bar, closed again by the move.
        const more = places.getByRole('button', { name: 'More' });
        await expect(places.getByRole('link', { name: 'Settings' })).toBeHidden();
        await more.click();
        await expect(places.getByRole('link', { name: 'Progress' })).toBeVisible();
        await expect(places.getByRole('link', { name: 'Achievements' })).toBeVisible();
        await page.screenshot({ path: join(artifacts, `i40-${width}-more-open-screen.png`) });
        await axeScan(page, `i40 the More menu at ${width} px`);
        await places.getByRole('link', { name: 'Settings' }).click();
        await expect(places.getByRole('link', { name: 'Settings' })).toBeHidden();
      } else {
        await expect(places.getByRole('button', { name: 'More' })).toBeHidden();
        await places.getByRole('link', { name: 'Settings' }).click();
      }
      await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
      // A toast sits above the bottom bar, never under it.
      await page.getByRole('button', { name: 'Save settings' }).click();
      const toast = page.locator('.toast').filter({ hasText: 'Settings saved' });
      await expect(toast).toBeVisible();
      if (phone) {
        const shown = await box(toast);
        expect(shown.y + shown.height).toBeLessThanOrEqual((await box(places)).y);
      }
      await shot(page, `i40-${width}-toast-above-the-bar`);
      await axeScan(page, `i40 settings signed in at ${width} px`);
    });

    test('a wide table scrolls inside its box, with a hint', async ({ page, watch }) => {
      void watch;
      await page.goto(WIDE_TABLE_LESSON);
      const table = page.getByRole('region', { name: WIDE_TABLE });
      await expect(table).toBeVisible();
      await fitsTheScreen(page, WIDE_TABLE_LESSON);
      const hint = page.getByText('Scroll for more');
      if (phone) {
        // The hint is the box's description: announced when the box takes the focus.
        await expect(hint).toBeVisible();
        await expect(table).toHaveAccessibleDescription('Scroll for more');
        await shot(page, `i40-${width}-wide-table-hint`);
        await table.focus();
        await page.keyboard.press('End');
        await table.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
        await expect(hint).toBeHidden();
        await fitsTheScreen(page, `${WIDE_TABLE_LESSON} scrolled`);
      } else {
        await expect(hint).toBeHidden();
      }
      await shot(page, `i40-${width}-wide-table`);
      await axeScan(page, `i40 wide table at ${width} px`);
    });

    test('icons are drawn, not emoji', async ({ page, watch }) => {
      void watch;
      await page.goto('/achievements');
      await expect(page.getByRole('heading', { level: 1, name: 'Achievements' })).toBeVisible();
      await expect(page.locator('main li.card svg.icon').first()).toBeVisible();
      await expect(page.getByRole('button', { name: /^Theme: / }).locator('svg.icon')).toBeVisible();
      await noEmojiShown(page, '/achievements');
      await page.goto(LESSON);
      await expect(page.getByTestId('game-bar').locator('svg.icon')).toBeVisible();
      await noEmojiShown(page, LESSON);
      await shot(page, `i40-${width}-icons`);
    });
  });
}
