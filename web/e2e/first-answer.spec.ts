import type { Browser, Page } from '@playwright/test';
import { expect, shot, test, watchConsole } from './fixtures';

// The lesson in the server's first answer (pages/web.py): readable without JavaScript, and
// taken over by the app without a layout shift and without fetching again what it was served.

const LESSON = '/lessons/embedding-dimension';
const TITLE = 'Embedding dimension (d_model)';
const API = '/api/v1/lessons/embedding-dimension/';
// What every page reads at once, served with a signed-out visitor's page (pages/web.py).
const SERVED_READS = ['/api/v1/session', '/api/v1/levels/', '/api/v1/achievements/', '/api/v1/quests/transformers/'];

/** The reads of `paths` the page makes. */
function readsOf(page: Page, paths: string[]): string[] {
  const reads: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (paths.includes(pathname)) reads.push(pathname);
  });
  return reads;
}

const VIEWPORTS = [
  { name: 'desktop', context: { viewport: { width: 1280, height: 800 } } },
  // Lighthouse's mobile screen (Moto G Power).
  { name: 'phone', context: { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 } },
];

type Box = { x: number; y: number; width: number; height: number };

async function h1Box(page: Page): Promise<Box> {
  const box = await page.getByRole('heading', { level: 1, name: TITLE }).boundingBox();
  expect(box).not.toBeNull();
  return box!;
}

async function withoutJavaScript(browser: Browser, options: (typeof VIEWPORTS)[number]) {
  const context = await browser.newContext({ ...options.context, javaScriptEnabled: false });
  return { context, page: await context.newPage() };
}

type Block = { kind: string; html?: string; caption?: string; rows?: string[][]; title?: string };

test('the lesson is in the first answer: title, text and table with JavaScript off', async ({ browser, request }) => {
  // What to look for comes from the API: admin specs that run earlier edit this lesson's blocks.
  const lesson = (await (await request.get(API)).json()) as { summary: string; blocks: Block[] };
  const prose = lesson.blocks.find((block) => block.kind === 'prose')!;
  const firstWords = prose.html!.replace(/<[^>]+>/g, '').trim().split(/\s+/).slice(0, 6).join(' ');
  const tableBlock = lesson.blocks.find((block) => block.kind === 'table')!;
  const figure = tableBlock.rows!.flat().find((cell) => /\d/.test(cell))!;

  const { context, page } = await withoutJavaScript(browser, VIEWPORTS[0]);
  const response = await page.goto(LESSON);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(`${TITLE} · Learning Platform`);
  const description = await page.locator('meta[name="description"]').getAttribute('content');
  expect(lesson.summary.startsWith(description!.replace(/…$/, ''))).toBe(true);
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(page.locator('.prose').first()).toContainText(firstWords);
  const table = page.getByRole('table', { name: tableBlock.caption });
  await expect(table).toBeVisible();
  await expect(table).toContainText(figure);
  await expect(page.getByText('Estimating parameter count')).toBeVisible();
  await shot(page, 'first-answer-no-javascript');
  await context.close();
});

for (const options of VIEWPORTS) {
  test(`the app takes over the served lesson without a shift or a second fetch (${options.name})`, async ({ browser }) => {
    const served = await withoutJavaScript(browser, options);
    await served.page.goto(LESSON);
    const before = await h1Box(served.page);
    await served.context.close();

    const context = await browser.newContext(options.context);
    const page = await context.newPage();
    const watch = watchConsole(page);
    // Every layout shift from the first paint on, as Lighthouse counts them (CLS).
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) w.shifts.push(entry.value);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const reads = readsOf(page, [API, ...SERVED_READS]);

    await page.goto(LESSON);
    // Everything the signed-out page loads on its first screen has arrived: progress card, exercise.
    await expect(page.getByTestId('progress-header')).toBeVisible();
    await expect(page.getByRole('heading', { name: /Exercise: / })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up' })).toBeVisible();
    await page.waitForTimeout(500);

    const after = await h1Box(page);
    expect(Math.abs(after.y - before.y), `h1 moved from y=${before.y} to y=${after.y}`).toBeLessThanOrEqual(2);
    expect(after.x).toBeCloseTo(before.x, 0);
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
    const cls = shifts.reduce((sum, value) => sum + value, 0);
    console.log(`first answer, ${options.name}: h1 y ${before.y} → ${after.y}, CLS ${cls.toFixed(4)} (${shifts.length} shifts)`);
    expect(cls).toBeLessThanOrEqual(0.05);
    expect(reads, 'the app fetched what it was served with').toEqual([]);
    await expect(page).toHaveTitle(`${TITLE} · Learning Platform`);
    await shot(page, `first-answer-app-${options.name}`);
    // Code is coloured when it nears the screen, and colouring moves nothing.
    await page.locator('pre code').first().scrollIntoViewIfNeeded();
    await expect(page.locator('pre code .hljs-keyword').first()).toHaveText('def');
    expect(watch.problems, 'console errors').toEqual([]);
    await context.close();
  });
}

test('the quest outline is in the first answer and the app does not fetch it again', async ({ browser }) => {
  const served = await browser.newContext({ javaScriptEnabled: false });
  const plain = await served.newPage();
  expect((await plain.goto('/quests/transformers'))?.status()).toBe(200);
  const heading = plain.getByRole('heading', { level: 1 });
  await expect(heading).toBeVisible();
  const title = (await heading.textContent()) ?? '';
  await expect(plain).toHaveTitle(`${title} · Learning Platform`);
  await expect(plain.getByRole('link', { name: TITLE })).toHaveAttribute('href', '/lessons/embedding-dimension');
  const before = (await heading.boundingBox())!;
  await served.close();

  const context = await browser.newContext();
  const page = await context.newPage();
  const reads = readsOf(page, SERVED_READS);
  await page.goto('/quests/transformers');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up' })).toBeVisible();
  await expect(page.getByTestId('game-bar')).toBeVisible();
  const after = (await page.getByRole('heading', { level: 1, name: title }).boundingBox())!;
  expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(2);
  expect(reads, 'the app fetched what it was served with').toEqual([]);
  await shot(page, 'first-answer-quest');
  await context.close();
});
