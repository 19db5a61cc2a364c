// Issue 40: on a slow phone the lesson answers a tap within 3 s of opening it. The figure is
// printed, not asserted (a shared 2-core host moves it by a second); docs/performance.md keeps it.
import type { Page } from '@playwright/test';
import { axeScan, expect, lessonFile, shot, signUp, test } from './fixtures';

const LESSON = '/lessons/embedding-dimension';

// About DevTools' slow 4G with Lighthouse's mobile CPU: 400 kbit/s down and up, 400 ms round trip, 4x slower CPU.
const SLOW_NETWORK = { offline: false, latency: 400, downloadThroughput: (400 * 1024) / 8, uploadThroughput: (400 * 1024) / 8 };
const CPU_SLOWDOWN = 4;

test.describe('on a slow phone', () => {
  test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });

  test('a slow phone: the lesson opened cold grades a tap on its first check at once (time printed)', async ({ page, watch }) => {
  void watch;
  test.setTimeout(120_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW_NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });

  // In the page, from its navigation's start: when the tap on Check answer is first acknowledged
  // (the button says "Checking…"), when its verdict first shows (graded by the server, on the
  // server's page or the app's), when the app has drawn the lesson, and when the app shows it.
  await page.addInitScript(() => {
    const marks = window as unknown as { tappedAt?: number; answeredAt?: number; drawnAt?: number; appAnsweredAt?: number };
    new MutationObserver((_, observer) => {
      const now = performance.now();
      const button = document.querySelector('.check-card button[type="submit"]');
      if (!marks.tappedAt && button?.textContent === 'Checking…') marks.tappedAt = now;
      if (!marks.answeredAt && document.querySelector('.check-card .check-result')) marks.answeredAt = now;
      const appCard = [...document.querySelectorAll('.check-card')].find((card) => /Check 1 of/.test(card.textContent ?? ''));
      if (!marks.drawnAt && appCard) marks.drawnAt = now;
      if (!marks.appAnsweredAt && appCard?.querySelector('.check-result')) marks.appAnsweredAt = now;
      if (marks.appAnsweredAt) observer.disconnect();
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  const answers = answersSent(page);

  await page.goto(LESSON, { waitUntil: 'commit' });
  // The first check as soon as it shows (the server's card, headed "Check", or the app's), a
  // wrong number typed in and tapped.
  const check = page.locator('.check-card').first();
  await check.getByLabel('Your answer').fill('4096', { timeout: 60_000 });
  await check.getByRole('button', { name: 'Check answer' }).tap();
  await expect(page.getByRole('region', { name: /^Check 1 of \d+$/ }).locator('.check-result')).toContainText('Not quite.', { timeout: 30_000 });
  expect(answers, 'the answer was sent once').toHaveLength(1);
  const marks = await page.evaluate(() => {
    const { tappedAt, answeredAt, drawnAt, appAnsweredAt } = window as unknown as Record<string, number>;
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    return { tappedAt, answeredAt, drawnAt, appAnsweredAt, html: navigation.responseEnd, fcp, load: navigation.loadEventEnd };
  });
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `slow phone (${(SLOW_NETWORK.downloadThroughput * 8) / 1024} kbit/s, ${SLOW_NETWORK.latency} ms RTT, ${CPU_SLOWDOWN}x CPU): ` +
      `the tap was acknowledged after ${s(marks.tappedAt)} and answered (graded) after ${s(marks.answeredAt)}; ` +
      `the app showed it after ${s(marks.appAnsweredAt)} ` +
      `(HTML ${s(marks.html)}, first paint ${s(marks.fcp)}, load ${s(marks.load)}, the app drawn ${s(marks.drawnAt)})`,
  );
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await shot(page, 'i40-slow-phone-answered');
});
});

/** The answers to checks the page sends, as they go. */
function answersSent(page: Page): string[] {
  const answers: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/answers')) answers.push(request.url());
  });
  return answers;
}

/** Holds the app's bundle back until `release()`: the server's page is all there is till then. */
async function holdTheApp(page: Page): Promise<{ release: () => void; answers: string[] }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return { release, answers: answersSent(page) };
}

// Before the app has arrived (its bundle held back here), an answer typed and tapped on the
// server's page is graded at once, not lost to a reload, and taken over by the app without
// being sent twice.
for (const width of [375, 1280]) {
  test(`at ${width} px: a check answered before the app arrives is graded at once and kept by the app`, async ({ page, watch }) => {
    void watch;
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: width < 500 ? 667 : 800 });
    const { release, answers } = await holdTheApp(page);
    // Not domcontentloaded: the page's module script (held) comes before it.
    await page.goto(LESSON, { waitUntil: 'commit' });
    const served = page.locator('.check-card').first();
    await expect(served.getByRole('heading', { name: 'Check', exact: true })).toBeVisible();
    await served.getByLabel('Your answer').fill('4096');
    await served.getByRole('button', { name: 'Check answer' }).click();
    await expect(served.getByRole('status').getByText('Not quite.')).toBeVisible();
    await expect(served.getByRole('button', { name: 'Check answer' })).toBeDisabled();
    expect(new URL(page.url()).search, 'the form did not reload the page').toBe('');
    await shot(page, `i40-${width}-answered-before-the-app`);

    release();
    const check = page.getByRole('region', { name: /^Check 1 of \d+$/ });
    await expect(check.getByText('Not quite.')).toBeVisible({ timeout: 30_000 });
    await expect(check.getByLabel('Your answer')).toHaveValue('4096');
    expect(answers, 'the answer was sent once, by the page').toHaveLength(1);
    await shot(page, `i40-${width}-graded-by-the-app`);
    await axeScan(page, `i40 a check answered early at ${width} px`);
  });
}

// Signed in, the answer the page sent is the one recorded: one try, its XP paid once.
test('signed in: a right answer given before the app arrives is paid once, as one try', async ({ page, watch }) => {
  void watch;
  test.setTimeout(90_000);
  await signUp(page, 'early-answer');
  const [first] = lessonFile('embedding-dimension').checks;
  expect(first.type).toBe('numeric');
  const { release, answers } = await holdTheApp(page);
  await page.goto(LESSON, { waitUntil: 'commit' });
  const served = page.locator('.check-card').first();
  await served.getByLabel('Your answer').fill(first.answer!);
  await served.getByRole('button', { name: 'Check answer' }).click();
  await expect(served.getByRole('status').getByText(/^Right! \+\d+ XP$/)).toBeVisible();

  release();
  await expect(page.getByRole('region', { name: /^Check 1 of \d+$/ }).getByText(/Right!/)).toBeVisible({ timeout: 30_000 });
  expect(answers).toHaveLength(1);
  const standings = await page.evaluate(async () => (await fetch('/api/v1/me/lessons/embedding-dimension/checks')).json());
  expect(standings.checks[0]).toMatchObject({ tries: 1, passed: true, passed_first_try: true });
  expect(standings.checks[0].xp_awarded).toBeGreaterThan(0);
});
