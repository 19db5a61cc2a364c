import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EarlyAnswer } from '@/lib/earlyAnswers';
import { readAnswers } from '@/lib/progressStore';
import { checkRoutes, checksLesson, RIGHT_ORDER } from '@/test/checks';
import { mockApi, signedInSession, type RecordedCall } from '@/test/mockApi';
import { progressSummary, signedOutLessonRoutes } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const PAGE = `/lessons/${checksLesson.slug}`;

function signedOut() {
  return mockApi({ ...signedOutLessonRoutes(checksLesson), ...checkRoutes({ signedIn: false }).routes });
}

function signedIn() {
  return mockApi({
    ...signedOutLessonRoutes(checksLesson),
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/progress?quest=transformers': { body: progressSummary() },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    [`GET /api/v1/lessons/${checksLesson.slug}/subscription`]: { body: { lesson: checksLesson.slug, following: false, explicit: null, commented: false, follows_on_comment: true } },
    ...checkRoutes({ signedIn: true }).routes,
  });
}

const check = (number: number) => screen.findByRole('region', { name: `Check ${number} of 3` });
const feedback = (region: HTMLElement) => within(region).getAllByRole('status').at(-1)!;

describe('numeric check', () => {
  it('celebrates a right answer and explains it', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await check(1);
    expect(within(region).getByText('dimensions')).toBeInTheDocument();
    await user.type(within(region).getByRole('textbox', { name: 'Your answer' }), '64');
    await user.click(within(region).getByRole('button', { name: 'Check answer' }));
    const status = feedback(region);
    expect(await within(status).findByText(/Right!/)).toBeInTheDocument();
    expect(status).toHaveTextContent('+17 XP');
    expect(status).toHaveTextContent('d_head = 768 / 12 = 64.');
    expect(status).toHaveTextContent('1 of 3 checks passed.');
    expect(within(region).getByText('✓ Passed')).toBeInTheDocument();
  });

  it('gives a wrong answer its feedback and asks to try again', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await check(1);
    await user.type(within(region).getByRole('textbox', { name: 'Your answer' }), '768');
    await user.click(within(region).getByRole('button', { name: 'Check answer' }));
    const status = feedback(region);
    expect(await within(status).findByText('Not quite.')).toBeInTheDocument();
    expect(status).toHaveTextContent('That is d_model itself; divide it among the heads.');
    expect(status).toHaveTextContent('Try again.');
    expect(within(region).getByText('After 3 wrong tries you can see the answer (1 so far).')).toBeInTheDocument();
  });

  it('says an unreadable answer cannot be read, without counting a try', async () => {
    signedOut();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await check(1);
    await user.type(within(region).getByRole('textbox', { name: 'Your answer' }), 'seven hundred');
    await user.click(within(region).getByRole('button', { name: 'Check answer' }));
    expect(await within(feedback(region)).findByText("We could not read 'seven hundred' as a number.")).toBeInTheDocument();
    expect(within(region).queryByText('Not quite.')).not.toBeInTheDocument();
    expect(readAnswers()).toEqual([]);
  });
});

describe('choice check', () => {
  it('marks every option with its explanation after a right answer', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await check(2);
    expect(within(region).getAllByRole('radio')).toHaveLength(3);
    await user.click(within(region).getByRole('radio', { name: '768' }));
    await user.click(within(region).getByRole('button', { name: 'Check answer' }));
    expect(await within(feedback(region)).findByText(/Right!/)).toBeInTheDocument();
    expect(within(region).getByRole('radio', { name: '768' })).toHaveAccessibleDescription('✓ Right: Right: d_model = 768.');
    expect(within(region).getByRole('radio', { name: '3,072' })).toHaveAccessibleDescription('✗ Not right: That is the feed-forward width, 4 × d_model.');
  });

  it('says why the chosen option is wrong', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await check(2);
    await user.click(within(region).getByRole('radio', { name: '64' }));
    await user.click(within(region).getByRole('button', { name: 'Check answer' }));
    expect(await within(feedback(region)).findByText('Not quite.')).toBeInTheDocument();
    expect(within(region).getByRole('radio', { name: '64' })).toHaveAccessibleDescription('✗ Not right: That is one head’s width.');
    expect(within(region).getByRole('radio', { name: '768' })).not.toHaveAccessibleDescription();
  });

  it('asks for a pick before sending anything', async () => {
    const { calls } = signedOut();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await check(2);
    await user.click(within(region).getByRole('button', { name: 'Check answer' }));
    expect(await within(feedback(region)).findByText('Pick an option first.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});

describe('ordering check', () => {
  /** The items' texts in the order shown. */
  const order = (region: HTMLElement) => within(within(region).getByRole('list')).getAllByRole('listitem').map((item) => item.querySelector('.ordering-text')!.textContent);

  it('passes once the items are moved into the right order', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await check(3);
    // Each item in turn moved up to its place.
    for (const [place, text] of RIGHT_ORDER.entries()) {
      while (order(region).indexOf(text) > place) await user.click(within(region).getByRole('button', { name: `Move ${text} up` }));
    }
    expect(order(region)).toEqual(RIGHT_ORDER);
    await user.click(within(region).getByRole('button', { name: 'Check answer' }));
    expect(await within(feedback(region)).findByText(/Right!/)).toBeInTheDocument();
  });

  it('says how many items are in place and marks each', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await check(3);
    // The device's shuffle may have put them right: one swap makes sure it did not.
    if (order(region).join() === RIGHT_ORDER.join()) await user.click(within(region).getByRole('button', { name: `Move ${RIGHT_ORDER[0]} down` }));
    const shown = order(region);
    await user.click(within(region).getByRole('button', { name: 'Check answer' }));
    const inPlace = shown.filter((text, index) => RIGHT_ORDER[index] === text).length;
    expect(await within(feedback(region)).findByText(`${inPlace} of 4 items are in the right place.`)).toBeInTheDocument();
    expect(within(region).queryAllByText('(in the right place)')).toHaveLength(inPlace);
  });

  it('moves an item with the keyboard, keeps the focus on it and announces its place', async () => {
    signedOut();
    const user = userEvent.setup();
    renderApp(PAGE);
    const region = await check(3);
    const first = order(region)[0]!;
    within(region).getByRole('button', { name: `Move ${first} down` }).focus();
    await user.keyboard('{Enter}');
    expect(order(region)[1]).toBe(first);
    expect(document.activeElement).toBe(within(region).getByRole('button', { name: `Move ${first} down` }));
    expect(within(region).getByText(`${first} moved to position 2 of 4.`)).toHaveAttribute('role', 'status');
    await user.keyboard(' ');
    expect(order(region)[2]).toBe(first);
    expect(within(region).getByText(`${first} moved to position 3 of 4.`)).toBeInTheDocument();
  });
});

describe('an answer given before the app arrived', () => {
  // index.html's inline script keeps what was answered on the server's page, and the reply to the
  // answer it sent (earlyAnswers.test.ts runs that script).
  const answeredEarly = (answers: Record<string, EarlyAnswer>) => {
    (window as unknown as { lpEarlyAnswers: Record<string, EarlyAnswer> }).lpEarlyAnswers = answers;
  };
  const reply = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
  const answerCalls = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'POST' && call.url.endsWith('/answers'));

  it('is sent as the app takes over when the page had not sent it, and shown in the control', async () => {
    const { calls } = signedIn();
    answeredEarly({ 61: { draft: '768' } });
    renderApp(PAGE);
    const region = await check(1);
    expect(await within(feedback(region)).findByText('Not quite.')).toBeInTheDocument();
    expect(within(region).getByRole('textbox', { name: 'Your answer' })).toHaveValue('768');
    expect(answerCalls(calls)).toHaveLength(1);
  });

  it('is not sent twice: the reply the page got is the one shown', async () => {
    const { calls } = signedIn();
    const wrong = { correct: false, feedback: ['Count the heads.'], marks: null, explanation: null, tries: 1, wrong_tries: 1, can_reveal: false, passed: false, revealed: false, xp_awarded: 0, lesson: null, new_achievements: [] };
    answeredEarly({ 61: { draft: '768', sent: reply(200, wrong) } });
    renderApp(PAGE);
    const region = await check(1);
    expect(await within(feedback(region)).findByText('Count the heads.')).toBeInTheDocument();
    expect(answerCalls(calls)).toHaveLength(0);
  });

  it('signed in, waits for the session: the reply is not kept on the device as well', async () => {
    let answerSession!: () => void;
    const session = new Promise<void>((resolve) => (answerSession = resolve));
    mockApi({
      ...signedOutLessonRoutes(checksLesson),
      'GET /api/v1/session': async () => {
        await session;
        return signedInSession();
      },
      'GET /api/v1/me/progress?quest=transformers': { body: progressSummary() },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
      [`GET /api/v1/lessons/${checksLesson.slug}/subscription`]: { body: { lesson: checksLesson.slug, following: false, explicit: null, commented: false, follows_on_comment: true } },
      ...checkRoutes({ signedIn: true }).routes,
    });
    const right = { correct: true, feedback: [], marks: null, explanation: 'Per head.', tries: 1, wrong_tries: 0, can_reveal: false, passed: true, revealed: false, xp_awarded: 17, lesson: null, new_achievements: [] };
    answeredEarly({ 61: { draft: '64', sent: reply(200, right) } });
    renderApp(PAGE);
    const region = await check(1);
    answerSession();
    expect(await within(feedback(region)).findByText(/Right! \+17 XP/)).toBeInTheDocument();
    expect(readAnswers()).toEqual([]);
  });

  it('signed out, the reply the page got is kept on this device as a try', async () => {
    signedOut();
    const right = { correct: true, feedback: [], marks: null, explanation: 'Per head.', tries: 0, wrong_tries: 0, can_reveal: false, passed: true, revealed: false, xp_awarded: 0, lesson: null, new_achievements: [] };
    answeredEarly({ 61: { draft: '64', sent: reply(200, right) } });
    renderApp(PAGE);
    const region = await check(1);
    expect(await within(feedback(region)).findByText(/Right!/)).toBeInTheDocument();
    expect(readAnswers().map(({ check: id, correct }) => [id, correct])).toEqual([[61, true]]);
  });

  it('is sent again when the page’s request was refused', async () => {
    const { calls } = signedIn();
    answeredEarly({ 61: { draft: '768', sent: reply(403, { type: 'permission_denied', title: 'Forbidden.', status: 403, detail: 'CSRF Failed.', errors: {} }) } });
    renderApp(PAGE);
    const region = await check(1);
    expect(await within(feedback(region)).findByText('Not quite.')).toBeInTheDocument();
    expect(answerCalls(calls)).toHaveLength(1);
  });

  it('says what is missing when the tap came with no answer', async () => {
    signedOut();
    answeredEarly({ 62: { draft: [] } });
    renderApp(PAGE);
    const region = await check(2);
    expect(await within(feedback(region)).findByText('Pick an option first.')).toBeInTheDocument();
  });
});
