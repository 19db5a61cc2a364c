// A learner answers each kind of check (ordering, choice, numeric) wrong, with the feedback
// shown, then right, celebrated, with the lesson's "n of m checks" moving on: at 1280 px signed
// in, the ordering by keyboard alone, and at 375 px signed out, where the numeric one's answer is
// shown after its wrong tries. The last check opens the lesson-complete screen and its "Next
// lesson" button; axe finds nothing serious or critical on the answered lesson.
import type { Locator, Page } from '@playwright/test';
import {
  axeScan,
  checkCard,
  expect,
  fillAnswer,
  lessonFile,
  rightAnswer,
  shot,
  signUp,
  submitAnswer,
  tabTo,
  test,
  wrongAnswer,
  type LessonCheck,
} from './fixtures';

const SLUG = 'transformer-at-a-glance';
const NEXT = 'Why models read tokens, not characters or words';
const lesson = lessonFile(SLUG);
const [ORDERING, CHOICE, NUMERIC] = lesson.checks;
const TOTAL = lesson.checks.length;

test.beforeAll(() => {
  expect(lesson.checks.map((check) => check.type)).toEqual(['ordering', 'choice', 'numeric']);
  expect(lesson.exercise).toBe(false);
});

async function fitsTheScreen(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what}: no sideways scrolling at ${page.viewportSize()?.width} px`).toBeLessThanOrEqual(0);
}

/** The lesson's own count, below its last block: "n of m checks passed" and its bar. */
async function expectPassed(page: Page, passed: number) {
  const status = page.locator('.checks-status');
  await expect(status).toContainText(`${passed} of ${TOTAL} checks passed`);
  await expect(status.getByRole('progressbar', { name: 'Checks passed' })).toHaveAttribute('aria-valuenow', String(passed));
}

/** Puts the ordering check's items in `ids`' order with the keyboard: Tab to an item's "Move up", Enter. */
async function orderByKeyboard(page: Page, card: Locator, check: LessonCheck, ids: string[]) {
  const texts = new Map(check.items!.map((item) => [item.id, item.text]));
  const order = () => card.locator('li.ordering-item').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.item!));
  let announced = false;
  for (const [place, id] of ids.entries()) {
    while ((await order()).indexOf(id) > place) {
      const position = (await order()).indexOf(id);
      const up = card.getByRole('button', { name: `Move ${texts.get(id)} up`, exact: true });
      await tabTo(page, up);
      await page.keyboard.press('Enter');
      await expect(card.locator('li.ordering-item').nth(position - 1)).toHaveAttribute('data-item', id);
      // The moved item keeps the focus, and a screen reader hears where it went.
      await expect(up).toBeFocused();
      if (!announced) {
        await expect(card.getByRole('status').filter({ hasText: `${texts.get(id)} moved to position ${position} of ${ids.length}.` })).toBeAttached();
        announced = true;
      }
    }
  }
}

/** "Check answer" pressed with the keyboard, and the verdict. */
async function submitByKeyboard(page: Page, card: Locator, expected: 'right' | 'wrong') {
  const id = (await card.getAttribute('id'))!.replace('block-', '');
  const graded = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith(`/api/v1/checks/${id}/answers`));
  await tabTo(page, card.getByRole('button', { name: 'Check answer' }));
  await page.keyboard.press('Enter');
  expect((await graded).status()).toBe(200);
  await expect(card.locator(`.check-result.${expected}`)).toBeVisible();
}

const ids = (answer: ReturnType<typeof rightAnswer>) => ('items' in answer ? answer.items : []);

async function expectWrong(card: Locator, feedback: string | null) {
  const result = card.locator('.check-result.wrong');
  await expect(result).toContainText('Not quite.');
  if (feedback) await expect(result).toContainText(feedback);
  await expect(result).toContainText('Try again.');
  await expect(card.getByText('✓ Passed')).toHaveCount(0);
}

async function expectRight(card: Locator, passed: number) {
  const result = card.locator('.check-result.right');
  await expect(result.locator('.check-verdict')).toContainText('Right!');
  await expect(card.getByText(/^✓ Passed/)).toBeVisible();
  if (passed < TOTAL) await expect(result).toContainText(`${passed} of ${TOTAL} checks passed.`);
}

/** A figure of the lesson-complete screen, by its label. */
const figure = (screen: Locator, label: string) => screen.locator('div').filter({ has: screen.page().getByRole('term').filter({ hasText: label }) }).getByRole('definition');

test('at 1280 px, signed in: each kind answered wrong then right (the ordering by keyboard alone), the lesson-complete screen, axe clean', async ({
  page,
  watch,
}) => {
  test.setTimeout(120_000);
  // "lots" is not a number: the server says so (400), and it is not counted as a try.
  watch.allow(/400 .*\/api\/v1\/checks\/\d+\/answers/);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUp(page, 'checks');
  await page.goto(`/lessons/${SLUG}`);
  await expectPassed(page, 0);

  // Ordering, by keyboard alone: two items swapped first, then the right order.
  const ordering = checkCard(page, 1, TOTAL);
  const wrongOrder = wrongAnswer(ORDERING);
  await orderByKeyboard(page, ordering, ORDERING, ids(wrongOrder.answer));
  await submitByKeyboard(page, ordering, 'wrong');
  await expectWrong(ordering, wrongOrder.feedback);
  await expect(ordering.locator('li.marked-wrong')).toHaveCount(2);
  await expect(ordering.getByText('(not in the right place)')).toHaveCount(2);
  await expectPassed(page, 0);
  await ordering.scrollIntoViewIfNeeded();
  await shot(page, 'checks-ordering-wrong-1280');
  await orderByKeyboard(page, ordering, ORDERING, ids(rightAnswer(ORDERING)));
  await submitByKeyboard(page, ordering, 'right');
  await expectRight(ordering, 1);
  await expect(ordering.locator('.check-result.right')).toContainText(/\+\d+ XP/);
  await expect(ordering.locator('li.marked-right')).toHaveCount(ORDERING.items!.length);
  await expectPassed(page, 1);
  await shot(page, 'checks-ordering-right-1280');

  // Choice: a wrong option says why, then the right one.
  const choice = checkCard(page, 2, TOTAL);
  const wrongChoice = wrongAnswer(CHOICE);
  await fillAnswer(choice, CHOICE, wrongChoice.answer);
  await submitAnswer(page, choice, 'wrong');
  await expectWrong(choice, wrongChoice.feedback);
  await expect(choice.locator('li.marked-wrong')).toContainText('✗ Not right');
  await shot(page, 'checks-choice-wrong-1280');
  await fillAnswer(choice, CHOICE, rightAnswer(CHOICE));
  await submitAnswer(page, choice, 'right');
  await expectRight(choice, 2);
  await expectPassed(page, 2);

  // Numeric: not a number (a message, no try), an expected mistake (its feedback), then right,
  // written with thousands separators.
  const numeric = checkCard(page, 3, TOTAL);
  await numeric.getByLabel('Your answer').fill('lots');
  await numeric.getByRole('button', { name: 'Check answer' }).click();
  await expect(numeric.locator('.check-notice')).toBeVisible();
  const wrongNumber = wrongAnswer(NUMERIC);
  await fillAnswer(numeric, NUMERIC, wrongNumber.answer);
  await submitAnswer(page, numeric, 'wrong');
  await expectWrong(numeric, wrongNumber.feedback);
  await expect(numeric.getByText(`After ${NUMERIC.revealAfter} wrong tries you can see the answer (1 so far).`)).toBeVisible();
  await shot(page, 'checks-numeric-wrong-1280');
  await numeric.getByLabel('Your answer').fill(Number(NUMERIC.answer).toLocaleString('en-US'));
  await submitAnswer(page, numeric, 'right');
  await expectRight(numeric, 3);

  // The last check completes the lesson, the learner's first: asked once for a daily goal.
  await expect(numeric.locator('.check-result.right')).toContainText('Lesson complete!');
  const goal = page.getByRole('dialog', { name: 'Set a daily goal?' });
  await expect(goal).toBeVisible();
  await goal.getByRole('button', { name: 'Not now' }).click();
  await expect(goal).toBeHidden();

  // Its screen, with the XP, the first tries and the way on.
  await numeric.getByRole('button', { name: 'See your results' }).click();
  const complete = page.getByRole('region', { name: 'Lesson complete!' });
  await expect(complete).toBeFocused();
  await expect(figure(complete, 'XP earned')).toHaveText(`+${lesson.xp} XP`);
  await expect(figure(complete, 'Right at the first try')).toHaveText(`0 of ${TOTAL} checks`);
  const next = complete.getByRole('link', { name: `Next lesson: ${NEXT}` });
  await expect(next).toBeVisible();
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await fitsTheScreen(page, 'lesson complete');
  await shot(page, 'checks-lesson-complete-1280');
  await axeScan(page, 'lesson with its checks answered (1280 px)');

  await next.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(NEXT);
  await expect(page.locator('.checks-status')).toContainText(/^0 of \d+ checks passed/);
});

test('at 375 px, signed out: each kind answered wrong then right, the answer shown after its wrong tries, kept and handed over at sign-up', async ({
  page,
  watch,
}) => {
  void watch;
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/lessons/${SLUG}`);
  await expectPassed(page, 0);
  await fitsTheScreen(page, 'lesson with checks');

  // Ordering, tapping the items' Move up buttons.
  const ordering = checkCard(page, 1, TOTAL);
  const wrongOrder = wrongAnswer(ORDERING);
  await fillAnswer(ordering, ORDERING, wrongOrder.answer);
  await submitAnswer(page, ordering, 'wrong');
  await expectWrong(ordering, wrongOrder.feedback);
  await fitsTheScreen(page, 'ordering answered wrong');
  await ordering.scrollIntoViewIfNeeded();
  await shot(page, 'checks-ordering-wrong-375');
  await fillAnswer(ordering, ORDERING, rightAnswer(ORDERING));
  await submitAnswer(page, ordering, 'right');
  await expectRight(ordering, 1);
  await expectPassed(page, 1);
  await fitsTheScreen(page, 'ordering answered right');
  await shot(page, 'checks-ordering-right-375');

  // Choice.
  const choice = checkCard(page, 2, TOTAL);
  const wrongChoice = wrongAnswer(CHOICE);
  await fillAnswer(choice, CHOICE, wrongChoice.answer);
  await submitAnswer(page, choice, 'wrong');
  await expectWrong(choice, wrongChoice.feedback);
  await fitsTheScreen(page, 'choice answered wrong');
  await shot(page, 'checks-choice-wrong-375');
  await fillAnswer(choice, CHOICE, rightAnswer(CHOICE));
  await submitAnswer(page, choice, 'right');
  await expectRight(choice, 2);
  await fitsTheScreen(page, 'choice answered right');
  await shot(page, 'checks-choice-right-375');

  // Numeric: wrong until "Show answer" is offered, the answer shown, then answered right (no XP).
  const numeric = checkCard(page, 3, TOTAL);
  const mistakes = NUMERIC.mistakes!.filter((mistake) => mistake.value !== undefined).slice(0, NUMERIC.revealAfter);
  expect(mistakes).toHaveLength(NUMERIC.revealAfter);
  for (const [index, mistake] of mistakes.entries()) {
    await expect(numeric.getByRole('button', { name: 'Show answer' })).toHaveCount(0);
    await numeric.getByLabel('Your answer').fill(mistake.value!);
    await submitAnswer(page, numeric, 'wrong');
    await expectWrong(numeric, mistake.feedback);
    if (index === 0) {
      await fitsTheScreen(page, 'numeric answered wrong');
      await shot(page, 'checks-numeric-wrong-375');
    }
  }
  const show = numeric.getByRole('button', { name: 'Show answer' });
  await expect(show).toBeVisible();
  await show.click();
  const solution = numeric.getByRole('heading', { name: 'The answer' }).locator('..');
  await expect(solution).toBeFocused();
  await expect(solution).toContainText(/12,?582,?912/);
  await expect(solution).toContainText('Answer it now to pass the check: a shown answer earns no XP.');
  await expect(show).toHaveCount(0);
  await fitsTheScreen(page, 'answer shown');
  await shot(page, 'checks-reveal-375');
  await fillAnswer(numeric, NUMERIC, rightAnswer(NUMERIC));
  await submitAnswer(page, numeric, 'right');
  await expect(numeric.locator('.check-result.right')).toContainText('No XP for this one: its answer was shown first.');
  await expect(numeric.getByText('✓ Passed (answer shown)')).toBeVisible();

  await numeric.getByRole('button', { name: 'See your results' }).click();
  const complete = page.getByRole('region', { name: 'Lesson complete!' });
  await expect(complete).toBeFocused();
  await expect(figure(complete, 'Right at the first try')).toHaveText(`0 of ${TOTAL} checks`);
  await expect(complete.getByRole('link', { name: `Next lesson: ${NEXT}` })).toBeVisible();
  await fitsTheScreen(page, 'lesson complete');
  await shot(page, 'checks-lesson-complete-375');
  await axeScan(page, 'lesson with its checks answered (375 px, signed out)');

  // The device kept the answers; the sign-up hands them over and the server grades them again.
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('lp.progress.checks') ?? '{}'));
  expect(kept.answers).toHaveLength(2 + 2 + NUMERIC.revealAfter + 1);
  await signUp(page, 'checks-375');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lp.progress.checks'))).toBeNull();
  const standings = await (await page.request.get(`/api/v1/me/lessons/${SLUG}/checks`)).json();
  expect(standings.checks.map((standing: { passed: boolean; revealed: boolean }) => [standing.passed, standing.revealed])).toEqual([
    [true, false],
    [true, false],
    [true, true],
  ]);
  const progress = await (await page.request.get('/api/v1/me/progress?quest=transformers')).json();
  expect(progress.completed_lessons).toEqual([SLUG]);
});
