// Issue 40: on a slow phone the lesson answers a tap within 3 s of opening it. The figure is
// printed, not asserted (a shared 2-core host moves it by a second); docs/performance.md keeps it.
import { axeScan, expect, shot, test } from './fixtures';

const LESSON = '/lessons/embedding-dimension';

// About DevTools' slow 4G with Lighthouse's mobile CPU: 400 kbit/s down and up, 400 ms round trip, 4x slower CPU.
const SLOW_NETWORK = { offline: false, latency: 400, downloadThroughput: (400 * 1024) / 8, uploadThroughput: (400 * 1024) / 8 };
const CPU_SLOWDOWN = 4;

test.describe('on a slow phone', () => {
  test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });

  test('a slow phone: the lesson opened cold answers a tap on its first check (time printed)', async ({ page, watch }) => {
  void watch;
  test.setTimeout(120_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW_NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });

  // In the page, from its navigation's start: when the tap on Check answer is first answered
  // (the button says "Checking…", on the server's page or the app's), when the app has drawn the
  // lesson, and when the app's own answer shows (a check sent empty says what is missing).
  await page.addInitScript(() => {
    const marks = window as unknown as { tappedAt?: number; drawnAt?: number; answeredAt?: number };
    new MutationObserver((_, observer) => {
      const now = performance.now();
      const button = document.querySelector('.check-card button[type="submit"]');
      if (!marks.tappedAt && (button?.textContent === 'Checking…' || document.querySelector('.check-notice'))) marks.tappedAt = now;
      if (!marks.drawnAt && /Check 1 of/.test(document.body?.textContent ?? '')) marks.drawnAt = now;
      if (!marks.answeredAt && document.querySelector('.check-notice')) marks.answeredAt = now;
      if (marks.answeredAt) observer.disconnect();
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });

  await page.goto(LESSON, { waitUntil: 'commit' });
  // The first check as soon as it shows: the server's card (headed "Check") or the app's.
  const check = page.locator('.check-card').first();
  await check.getByRole('button', { name: 'Check answer' }).tap({ timeout: 60_000 });
  await expect(page.getByRole('region', { name: /^Check 1 of \d+$/ }).locator('.check-notice')).toHaveText('Type a number first.', { timeout: 30_000 });
  const marks = await page.evaluate(() => {
    const { tappedAt, drawnAt, answeredAt } = window as unknown as Record<string, number>;
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    return { tappedAt, drawnAt, answeredAt, html: navigation.responseEnd, fcp, load: navigation.loadEventEnd };
  });
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `slow phone (${(SLOW_NETWORK.downloadThroughput * 8) / 1024} kbit/s, ${SLOW_NETWORK.latency} ms RTT, ${CPU_SLOWDOWN}x CPU): ` +
      `the lesson answered a tap after ${s(marks.tappedAt)}; the app's answer after ${s(marks.answeredAt)} ` +
      `(HTML ${s(marks.html)}, first paint ${s(marks.fcp)}, load ${s(marks.load)}, the app drawn ${s(marks.drawnAt)})`,
  );
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await shot(page, 'i40-slow-phone-answered');
});
});

// Before the app has arrived (its bundle held back here), an answer typed and tapped on the
// server's page is acknowledged at once, not lost to a reload, and graded once the app runs.
for (const width of [375, 1280]) {
  test(`at ${width} px: a check answered before the app arrives is kept and graded once it does`, async ({ page, watch }) => {
    void watch;
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: width < 500 ? 667 : 800 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // Not domcontentloaded: the page's module script (held) comes before it.
    await page.goto(LESSON, { waitUntil: 'commit' });
    const served = page.locator('.check-card').first();
    await expect(served.getByRole('heading', { name: 'Check', exact: true })).toBeVisible();
    await served.getByLabel('Your answer').fill('4096');
    await served.getByRole('button', { name: 'Check answer' }).click();
    await expect(served.getByRole('button', { name: 'Checking…' })).toBeDisabled();
    expect(new URL(page.url()).search, 'the form did not reload the page').toBe('');
    await shot(page, `i40-${width}-answered-before-the-app`);

    release();
    const check = page.getByRole('region', { name: /^Check 1 of \d+$/ });
    await expect(check.getByText('Not quite.')).toBeVisible({ timeout: 30_000 });
    await expect(check.getByLabel('Your answer')).toHaveValue('4096');
    await shot(page, `i40-${width}-graded-by-the-app`);
    await axeScan(page, `i40 a check answered early at ${width} px`);
  });
}
