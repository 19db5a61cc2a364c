// Issue 40: on a slow phone the lesson answers a tap within 3 s of opening it. The figure is
// printed, not asserted (a shared 2-core host moves it by a second); docs/performance.md keeps it.
import { expect, shot, test } from './fixtures';

const LESSON = '/lessons/embedding-dimension';

// About DevTools' slow 4G with Lighthouse's mobile CPU: 400 kbit/s down and up, 400 ms round trip, 4x slower CPU.
const SLOW_NETWORK = { offline: false, latency: 400, downloadThroughput: (400 * 1024) / 8, uploadThroughput: (400 * 1024) / 8 };
const CPU_SLOWDOWN = 4;

test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });

test('a slow phone: the lesson opened cold answers a tap on its first check (time printed)', async ({ page, watch }) => {
  void watch;
  test.setTimeout(120_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW_NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });

  // In the page, from its navigation's start: when the app first answers a tap on Check answer
  // (a check sent empty says what is missing, without asking the server).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      const w = window as unknown as { drawnAt?: number };
      if (!w.drawnAt && /Check 1 of/.test(document.body?.textContent ?? '')) w.drawnAt = performance.now();
      if (!document.querySelector('.check-notice')) return;
      (w as { answeredAt?: number }).answeredAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });

  await page.goto(LESSON, { waitUntil: 'commit' });
  const check = page.getByRole('region', { name: /^Check 1 of \d+$/ });
  // The server's card is headed "Check"; the app's counts the checks: tap the app's button.
  const answer = check.getByRole('button', { name: 'Check answer' });
  await answer.tap({ timeout: 60_000 });
  await expect(check.locator('.check-notice')).toBeVisible({ timeout: 30_000 });
  const { answeredAt, drawnAt } = await page.evaluate(() => {
    const marks = window as unknown as { answeredAt: number; drawnAt: number };
    return { answeredAt: marks.answeredAt, drawnAt: marks.drawnAt };
  });
  const timing = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    return { html: navigation.responseEnd, fcp, load: navigation.loadEventEnd };
  });
  console.log(
    `slow phone (${SLOW_NETWORK.downloadThroughput * 8 / 1024} kbit/s, ${SLOW_NETWORK.latency} ms RTT, ${CPU_SLOWDOWN}x CPU): ` +
      `the lesson answered a tap after ${(answeredAt / 1000).toFixed(2)} s ` +
      `(HTML ${(timing.html / 1000).toFixed(2)} s, first paint ${(timing.fcp / 1000).toFixed(2)} s, load ${(timing.load / 1000).toFixed(2)} s, ` +
      `the app drawn ${(drawnAt / 1000).toFixed(2)} s)`,
  );
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await shot(page, 'i40-slow-phone-answered');
});
