import { expect, header, shot, test } from './fixtures';

test('the d_model lesson, signed out, shows the header from the API data', async ({ page, watch }) => {
  void watch;
  await page.goto('/lessons/embedding-dimension');
  const bar = header(page);
  await expect(bar).toBeVisible();
  await expect(bar.getByText('Level 0 · Token')).toBeVisible();
  await expect(bar).toContainText('0 XP');
  await expect(bar.getByText('0/94 lessons')).toBeVisible();
  await expect(bar.getByText('0/10 achievements')).toBeVisible();
  await expect(bar.getByText('0/120 XP to next level')).toBeVisible();
  await expect(bar.getByText('120 XP to go')).toBeVisible();
  await expect(bar.getByText('0% complete')).toBeVisible();
  await expect(bar.getByRole('progressbar', { name: 'XP toward the next level' })).toHaveAttribute('aria-valuenow', '0');
  await expect(bar).toContainText('Progress is local-only — sign in to sync across devices');

  await expect(page.getByRole('heading', { level: 1, name: 'Embedding dimension (d_model)' })).toBeVisible();
  await expect(page.getByText('10 min')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Tags' })).toContainText('d-model');
  await expect(page.getByRole('table', { name: 'Width and depth of some well-known models' })).toBeVisible();
  await expect(page.getByText('Estimating parameter count')).toBeVisible();
  // The code is coloured once it comes near the screen.
  await page.locator('pre code').first().scrollIntoViewIfNeeded();
  await expect(page.locator('pre code .hljs-keyword').first()).toHaveText('def');
  await expect(page.getByRole('button', { name: 'Copy code: Estimating parameter count' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Attention Is All You Need/ })).toHaveAttribute('href', 'https://arxiv.org/abs/1706.03762');
  await expect(page.getByRole('link', { name: /Previous: Token embeddings/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Next: What lives in embedding space/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Exercise: Read d_model/ })).toBeVisible();
  await shot(page, '01-lesson-signed-out-desktop');

  // Keyboard: the first Tab stop skips to the content; the dialog traps focus and Escape closes it.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  const report = page.getByRole('button', { name: 'Report an issue' });
  await report.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Report an issue' });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement) || document.activeElement === document.body)).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(report).toBeFocused();

  const timing = await page.evaluate(() => {
    const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return { domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
  });
  console.log(
    `lesson page load (desktop, loopback): DOMContentLoaded ${timing.domContentLoaded.toFixed(0)} ms, load ${timing.load.toFixed(0)} ms`,
  );

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(bar.getByText('Level 0 · Token')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'no horizontal scrolling at 375 px').toBeLessThanOrEqual(0);
  await shot(page, '02-lesson-signed-out-375px');
});

test('the header is visible quickly on a fresh load (timing printed)', async ({ page, watch }) => {
  void watch;
  const runs: number[] = [];
  for (let run = 0; run < 3; run++) {
    await page.goto('/lessons/embedding-dimension', { waitUntil: 'commit' });
    // Polled every animation frame in the page: the time the header first shows its level.
    const visibleAt = await page.waitForFunction(
      () => (document.querySelector('[data-testid=progress-header]')?.textContent?.includes('Level 0 · Token') ? performance.now() : 0),
      null,
      { polling: 'raf' },
    );
    runs.push(Number(await visibleAt.jsonValue()));
  }
  runs.sort((a, b) => a - b);
  console.log(`lesson page: header visible after ${runs.map((ms) => ms.toFixed(0)).join(', ')} ms (median ${runs[1].toFixed(0)} ms) from navigation start`);
  expect(runs[1]).toBeLessThan(10_000);
});
