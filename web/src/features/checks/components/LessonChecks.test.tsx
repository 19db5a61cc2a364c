import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readAnswers, readEvents } from '@/lib/progressStore';
import { checkRoutes, checksLesson, RIGHT_ORDER } from '@/test/checks';
import { mockApi, signedInSession } from '@/test/mockApi';
import { progressSummary, signedOutLessonRoutes } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import type { ExerciseDetail, ProgressSummary } from '@/lib/types';

const PAGE = `/lessons/${checksLesson.slug}`;

const exercise: ExerciseDetail = {
  id: 1,
  slug: 'embedding-dimension-configs',
  lesson: checksLesson.slug,
  title: 'Read d_model from three configs',
  kind: 'table',
  prompt: 'Tabulate three models.',
  prompt_html: '<p>Tabulate three models.</p>',
  key_column: { name: 'model', synonyms: [] },
  columns: [{ name: 'd_model', field: 'd_model', synonyms: [], hint: '' }],
  rows_required: 3,
  pass_mark: 0.8,
  xp: 60,
  passed: null,
  known_models: [],
  example: 'model,d_model\nmy-made-up-model,111',
  limits: { max_bytes: 65536, max_rows: 200 },
};

function signedOut() {
  return mockApi({ ...signedOutLessonRoutes(checksLesson), ...checkRoutes({ signedIn: false }).routes });
}

/** A signed-in learner; once the lesson is complete the server's summary says so. */
function signedIn() {
  const server = checkRoutes({ signedIn: true });
  const summary = (): ProgressSummary => {
    const done = [61, 62, 63].every((id) => server.standings.get(id)?.passed);
    return done
      ? progressSummary({
          xp: 51,
          lessons_completed: 1,
          completed_lessons: [checksLesson.slug],
          streak: { current: 4, best: 4, today: 'done', freezes: 0 },
          daily_goal: { xp: 30, xp_today: 51, met: true, chosen: true },
        })
      : progressSummary({ daily_goal: { xp: 30, xp_today: 0, met: false, chosen: true } });
  };
  return mockApi({
    ...signedOutLessonRoutes(checksLesson),
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/progress?quest=transformers': () => ({ body: summary() }),
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    [`GET /api/v1/lessons/${checksLesson.slug}/subscription`]: { body: { lesson: checksLesson.slug, following: false, explicit: null, commented: false, follows_on_comment: true } },
    ...server.routes,
  });
}

const check = (number: number) => screen.findByRole('region', { name: `Check ${number} of 3` });
const feedback = (region: HTMLElement) => within(region).getAllByRole('status').at(-1)!;
const orderShown = (region: HTMLElement) => within(within(region).getByRole('list')).getAllByRole('listitem').map((item) => item.querySelector('.ordering-text')!.textContent!);

async function answerNumeric(user: UserEvent, value: string) {
  const region = await check(1);
  const input = within(region).getByRole('textbox', { name: 'Your answer' });
  await user.clear(input);
  await user.type(input, value);
  await user.click(within(region).getByRole('button', { name: 'Check answer' }));
  return region;
}

async function pick(user: UserEvent, option: string) {
  const region = await check(2);
  await user.click(within(region).getByRole('radio', { name: option }));
  await user.click(within(region).getByRole('button', { name: 'Check answer' }));
  return region;
}

async function orderRight(user: UserEvent) {
  const region = await check(3);
  for (const [place, text] of RIGHT_ORDER.entries()) {
    while (orderShown(region).indexOf(text) > place) await user.click(within(region).getByRole('button', { name: `Move ${text} up` }));
  }
  await user.click(within(region).getByRole('button', { name: 'Check answer' }));
  return region;
}

/** Every check answered right at the first try. */
async function answerAll(user: UserEvent) {
  await within(feedback(await answerNumeric(user, '64'))).findByText(/Right!/);
  await within(feedback(await pick(user, '768'))).findByText(/Right!/);
  await within(feedback(await orderRight(user))).findByText(/Right!/);
}

describe('a lesson with checks', () => {
  it('has no Mark complete: its checks complete it', async () => {
    signedOut();
    renderApp(PAGE);
    expect(await screen.findByText('0 of 3 checks passed')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Checks passed' })).toHaveAttribute('aria-valuenow', '0');
    expect(screen.queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
  });

  it('shows the lesson-complete screen once the last check is passed', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp(PAGE);
    await answerAll(user);
    const last = await check(3);
    expect(feedback(last)).toHaveTextContent('Lesson complete!');
    // Its code comes once the lesson is complete.
    const screenRegion = await screen.findByRole('region', { name: 'Lesson complete!' });
    await user.click(within(last).getByRole('button', { name: 'See your results' }));
    expect(document.activeElement).toBe(screenRegion);
    const stat = (name: string) => within(screenRegion).getByText(name).nextElementSibling;
    expect(stat('XP earned')).toHaveTextContent('+51 XP');
    expect(stat('Right at the first try')).toHaveTextContent('3 of 3 checks');
    expect(stat('Time spent')).toHaveTextContent('under a minute');
    expect(await within(screenRegion).findByText(/4-day streak/)).toHaveTextContent('4-day streak · today is done');
    expect(within(screenRegion).getByText(/Daily goal:/)).toHaveTextContent('Daily goal: 51 of 30 XP · met ✓');
    expect(within(screenRegion).getByRole('link', { name: 'Next lesson: What lives in embedding space' })).toHaveAttribute('href', '/lessons/embedding-geometry');
    expect(await screen.findByText('✓ Completed')).toBeInTheDocument();
  });

  it('counts a check right at the first try only when it was', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp(PAGE);
    await within(feedback(await answerNumeric(user, '768'))).findByText('Not quite.');
    await within(feedback(await answerNumeric(user, '64'))).findByText(/Right!/);
    await within(feedback(await pick(user, '768'))).findByText(/Right!/);
    await within(feedback(await orderRight(user))).findByText(/Right!/);
    const screenRegion = await screen.findByRole('region', { name: 'Lesson complete!' });
    expect(within(screenRegion).getByText('Right at the first try').nextElementSibling).toHaveTextContent('2 of 3 checks');
  });
});

describe('Show answer', () => {
  it('appears after reveal_after wrong tries and shows the solution with its explanation', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await pick(user, '64');
    await within(feedback(region)).findByText('Not quite.');
    expect(within(region).queryByRole('button', { name: 'Show answer' })).not.toBeInTheDocument();
    await pick(user, '3,072');
    await user.click(await within(region).findByRole('button', { name: 'Show answer' }));
    const solution = await within(region).findByRole('heading', { name: 'The answer' });
    const box = solution.parentElement!;
    expect(document.activeElement).toBe(box);
    expect(box).toHaveTextContent('768');
    expect(box).toHaveTextContent('GPT-2 small is 768 wide.');
    expect(within(region).queryByRole('button', { name: 'Show answer' })).not.toBeInTheDocument();
  });

  it('lets the learner pass the check afterwards, without XP', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await pick(user, '64');
    await within(feedback(region)).findByText('Not quite.');
    await pick(user, '3,072');
    await user.click(await within(region).findByRole('button', { name: 'Show answer' }));
    await within(region).findByRole('heading', { name: 'The answer' });
    await pick(user, '768');
    const status = feedback(region);
    expect(await within(status).findByText(/Right!/)).not.toHaveTextContent('XP');
    expect(status).toHaveTextContent('No XP for this one: its answer was shown first.');
    expect(within(region).getByText('✓ Passed (answer shown)')).toBeInTheDocument();
  });

  it('marks the answers kept signed out as given after a reveal', async () => {
    signedOut();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await pick(user, '64');
    await within(feedback(region)).findByText('Not quite.');
    await pick(user, '3,072');
    await user.click(await within(region).findByRole('button', { name: 'Show answer' }));
    await within(region).findByRole('heading', { name: 'The answer' });
    await pick(user, '768');
    await within(feedback(region)).findByText(/Right!/);
    expect(readAnswers().map((answer) => [answer.correct, answer.revealed])).toEqual([
      [false, false],
      [false, false],
      [true, true],
    ]);
  });
});

describe('signed out', () => {
  it('keeps every answer on the device and completes the lesson there once all are passed', async () => {
    const { calls } = signedOut();
    const user = userEvent.setup();
    renderApp(PAGE);
    await within(feedback(await answerNumeric(user, '768'))).findByText('Not quite.');
    await answerAll(user);
    expect(readAnswers()).toEqual([
      expect.objectContaining({ check: 61, lesson: checksLesson.slug, answer: { value: '768' }, correct: false, revealed: false }),
      expect.objectContaining({ check: 61, answer: { value: '64' }, correct: true }),
      expect.objectContaining({ check: 62, answer: { options: ['o768'] }, correct: true }),
      expect.objectContaining({ check: 63, answer: { items: ['ids', 'embeddings', 'blocks', 'logits'] }, correct: true }),
    ]);
    expect(readAnswers().every((answer) => /^[0-9a-f-]{36}$/.test(answer.id) && !Number.isNaN(Date.parse(answer.answered_at)))).toBe(true);
    expect(readEvents()).toEqual([expect.objectContaining({ type: 'lesson_completed', lesson: checksLesson.slug })]);
    const screenRegion = await screen.findByRole('region', { name: 'Lesson complete!' });
    expect(within(screenRegion).getByText('XP earned').nextElementSibling).toHaveTextContent('+50 XP');
    expect(within(screenRegion).getByText('Right at the first try').nextElementSibling).toHaveTextContent('2 of 3 checks');
    expect(within(screenRegion).getByText(/day streak on this device/)).toHaveTextContent('1-day streak on this device · today is done');
    expect(within(screenRegion).getByText(/Today:/)).toHaveTextContent('Today: 50 XP.');
    expect(within(screen.getByTestId('progress-header')).getByText('1/94 lessons')).toBeInTheDocument();
    // Graded by the server, recorded nowhere but here.
    expect(calls.filter((call) => call.method === 'POST').every((call) => /^\/api\/v1\/checks\/\d+\/answers$/.test(call.url))).toBe(true);
  });

  it('leaves a lesson with a table exercise to the server: its checks alone do not complete it', async () => {
    const withExercise = { ...checksLesson, exercise: { id: 1, title: 'Read d_model from three configs', kind: 'table', xp: 60 } };
    mockApi({
      ...signedOutLessonRoutes(withExercise),
      ...checkRoutes({ signedIn: false }).routes,
      'GET /api/v1/exercises/1/': { body: exercise },
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    await answerAll(user);
    expect(feedback(await check(3))).toHaveTextContent('All checks passed: the exercise below completes the lesson.');
    expect(screen.getByText('3 of 3 checks passed · the exercise completes the lesson')).toBeInTheDocument();
    expect(readEvents()).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Lesson complete!' })).not.toBeInTheDocument();
  });

  it('shows the checks passed on this device after a reload', async () => {
    signedOut();
    const user = userEvent.setup();
    renderApp(PAGE);
    await within(feedback(await answerNumeric(user, '64'))).findByText(/Right!/);
    cleanup();
    renderApp(PAGE);
    expect(within(await check(1)).getByText('✓ Passed')).toBeInTheDocument();
    expect(screen.getByText('1 of 3 checks passed')).toBeInTheDocument();
  });

  it('shows the options in the same shuffled order after a reload', async () => {
    signedOut();
    renderApp(PAGE);
    const options = async () => within(await check(2)).getAllByRole('radio').map((radio) => radio.getAttribute('value'));
    const items = async () => orderShown(await check(3));
    const before = [await options(), await items()];
    cleanup();
    renderApp(PAGE);
    expect([await options(), await items()]).toEqual(before);
  });
});

describe('dragging an ordering item', () => {
  afterEach(() => vi.restoreAllMocks());

  it('moves it where the pointer lets go and announces its place', async () => {
    signedOut();
    // Rows 40 px tall, one under the other, in their current order.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const index = this.parentElement ? Array.from(this.parentElement.children).indexOf(this) : 0;
      return { top: index * 40, height: 40, bottom: index * 40 + 40, left: 0, right: 300, width: 300, x: 0, y: index * 40, toJSON: () => ({}) } as DOMRect;
    });
    renderApp(PAGE);
    const region = await check(3);
    const first = orderShown(region)[0];
    const handle = within(region).getAllByRole('listitem')[0].querySelector('.drag-handle')!;
    fireEvent.pointerDown(handle, { pointerId: 1, button: 0, pointerType: 'touch', clientY: 20 });
    fireEvent.pointerMove(handle, { pointerId: 1, pointerType: 'touch', clientY: 105 });
    fireEvent.pointerUp(handle, { pointerId: 1, pointerType: 'touch', clientY: 105 });
    expect(orderShown(region)[2]).toBe(first);
    expect(within(region).getByText(`${first} moved to position 3 of 4.`)).toBeInTheDocument();
  });
});
