import type { Page } from '@playwright/test';
import { expect, passChecks, axeScan as scan, shot, signUp, test } from './fixtures';

const signedOutPages: [string, string, RegExp | null][] = [
  ['/', 'home', null],
  ['/quests/transformers', 'quest', null],
  ['/lessons/embedding-dimension', 'lesson', null],
  ['/achievements', 'achievements', null],
  ['/leaderboard', 'leaderboard', null],
  ['/signin', 'sign-in', null],
  ['/signup', 'sign-up', null],
  ['/account/password/reset', 'password-reset-request', null],
  // Links with a key that is not valid: the pages say so (allauth answers 400).
  ['/account/verify-email/not-a-key', 'verify-email', /400 .*\/auth\/email\/verify/],
  ['/account/password/reset/key/not-a-key', 'password-reset', /400 .*\/auth\/password\/reset/],
  ['/no-such-page', 'not-found', null],
];

for (const theme of ['light', 'dark'] as const) {
  test(`every page signed out, ${theme} (the system's setting), has no serious or critical axe violations`, async ({ page, watch }) => {
    // Twelve scans: 52–65 s on a loaded 2-core machine, past the default minute.
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: theme });
    const suffix = theme === 'dark' ? '-dark' : '';
    for (const [path, name, allowed] of signedOutPages) {
      if (allowed) watch.allow(allowed);
      await page.goto(path);
      await expect(page.locator('main h1')).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /Loading|Checking/ })).toHaveCount(0);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await scan(page, `${name} (signed out, ${theme})`);
      await shot(page, `a11y-${name}-signed-out${suffix}`);
    }
    await page.goto('/lessons/embedding-dimension');
    await page.getByRole('button', { name: 'Report an issue' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await scan(page, `report dialog (${theme})`);
  });
}

/** The signed-in pages: each scanned by axe, none scrolling sideways, a screenshot of each. */
async function scanSignedInPages(page: Page, label: string, shotName: (name: string) => string) {
  for (const [path, name] of [
    ['/', 'home'],
    ['/quests/transformers', 'quest'],
    ['/lessons/embedding-dimension', 'lesson'],
    ['/achievements', 'achievements'],
    ['/leaderboard', 'leaderboard'],
    ['/notifications', 'notifications'],
    ['/settings', 'settings'],
    ['/reports', 'my-reports'],
    ['/progress', 'progress'],
  ]) {
    await page.goto(path);
    await expect(page.locator('main h1')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
    await scan(page, `${name} (signed in, ${label})`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name}: no horizontal scrolling (${label})`).toBeLessThanOrEqual(0);
    await shot(page, shotName(name));
  }
}

test('every page signed in, at 375 px, has no serious or critical axe violations and no sideways scrolling; settings save', async ({ page, watch }) => {
  void watch;
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 812 });
  await signUp(page, 'a11y');
  await scanSignedInPages(page, '375 px, light', (name) => `a11y-${name}-signed-in-375px`);

  await page.goto('/settings');
  await page.getByLabel('Display name').fill('Ada L');
  await page.getByLabel('Time zone').selectOption('Europe/Berlin');
  await page.getByLabel('Also send notifications by e-mail').uncheck();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Display name')).toHaveValue('Ada L');
  await expect(page.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  await expect(page.getByLabel('Also send notifications by e-mail')).not.toBeChecked();

  // A lesson completed by its checks, for a rank on the leaderboard.
  await page.goto('/lessons/token-embeddings');
  await passChecks(page, 'token-embeddings');
  await expect(page.getByRole('heading', { name: 'Lesson complete!' })).toBeVisible();
  await page.goto('/leaderboard?period=all');
  await expect(page.getByText(/Your rank: #\d+ with [1-9]\d* XP/)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Ada L (you)' })).toBeVisible();
  await page.getByRole('button', { name: 'This week' }).click();
  await expect(page.getByRole('button', { name: 'This week' })).toHaveAttribute('aria-pressed', 'true');
  await shot(page, 'a11y-leaderboard-with-own-rank');
});

test('dark mode chosen with the toggle: every page signed in has no serious or critical axe violations; the choice is kept', async ({ page, watch }) => {
  void watch;
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'light' });
  await signUp(page, 'a11y-dark');
  const toggle = page.getByRole('button', { name: /^Theme: / });
  await expect(toggle).toHaveAccessibleName('Theme: System. Switch to Light');
  await toggle.click();
  await expect(toggle).toHaveAccessibleName('Theme: Light. Switch to Dark');
  await toggle.click();
  await expect(toggle).toHaveAccessibleName('Theme: Dark. Switch to System');
  await expect(page.getByRole('status').filter({ hasText: 'Theme: Dark' })).toBeAttached();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  // Something to show on the progress page and in the lesson's header.
  await page.goto('/lessons/token-embeddings');
  await passChecks(page, 'token-embeddings');
  await expect(page.getByRole('heading', { name: 'Lesson complete!' })).toBeVisible();

  // The issue's screenshots of dark mode are three of these.
  const issueShots = ['home', 'lesson', 'progress'];
  await scanSignedInPages(page, 'dark', (name) => (issueShots.includes(name) ? `21-dark-${name}` : `a11y-${name}-signed-in-dark`));
  const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(background, 'the page is dark').toBe('rgb(13, 17, 23)');

  // Kept on this device, over the system's light setting, and back to the system's on System.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('the theme is there before the app runs: no light flash for a dark-mode learner', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'light' });
  await context.addInitScript(() => localStorage.setItem('lp-theme', 'dark'));
  const page = await context.newPage();
  // The app's script never loads: what paints is index.html and the stylesheet alone.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(13, 17, 23)');
  await context.close();
});
