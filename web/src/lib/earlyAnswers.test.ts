import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { failNextRequest, mockApi } from '@/test/mockApi';
import type { CheckResult } from './types';
import { takeEarlyAnswer } from './earlyAnswers';

/** index.html's inline scripts, run as the browser runs them while the server's page shows. */
function runIndexScripts() {
  const html = readFileSync(join(import.meta.dirname, '..', '..', 'index.html'), 'utf8');
  const script = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]).find((body) => body.includes('lpEarlyAnswers'));
  expect(script, 'index.html has the early answers script').toBeTruthy();
  new Function(script as string)();
}

// The server's check cards (pages/templates/pages/web/check.html), reduced to what the script reads.
const card = (id: number, control: string) =>
  `<section class="check-card" id="block-${id}"><form class="check-form">${control}<button type="submit">Check answer</button></form><div class="check-feedback" role="status"></div></section>`;
const SERVER_CHECKS = [
  card(7, '<input type="text" value="128">'),
  card(8, '<input type="radio" value="a"><input type="radio" value="b" checked>'),
  card(9, '<ol><li data-item="y"></li><li data-item="x"></li></ol>'),
  card(10, '<input type="checkbox" value="a"><input type="checkbox" value="b">'),
  card(11, '<input type="text" value=" ">'),
  card(12, '<input type="radio" value="a"><input type="radio" value="b">'),
].join('');

const submit = (id: number) => {
  const form = document.querySelector(`#block-${id} form`) as HTMLFormElement;
  const event = new Event('submit', { bubbles: true, cancelable: true });
  form.dispatchEvent(event);
  return event;
};
const button = (id: number) => document.querySelector(`#block-${id} button`) as HTMLButtonElement;
const shown = (id: number) => (document.querySelector(`#block-${id} .check-feedback`) as HTMLElement).textContent;

const result = (graded: Partial<CheckResult>): CheckResult => ({
  correct: false,
  feedback: [],
  marks: {},
  explanation: null,
  tries: 1,
  wrong_tries: 1,
  can_reveal: false,
  passed: false,
  revealed: false,
  xp_awarded: 0,
  lesson: null,
  new_achievements: [],
  ...graded,
});

describe('a check answered on the server page, before the app (index.html)', () => {
  // Once, as a page runs it: each run adds its listener to the document.
  beforeAll(runIndexScripts);
  afterEach(() => {
    document.body.innerHTML = '';
    document.cookie = 'csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it('sends each kind’s answer once, with the CSRF token, says Checking… and does not reload the page', async () => {
    const wrong = { body: result({}) };
    const { calls } = mockApi({ 'POST /api/v1/checks/7/answers': wrong, 'POST /api/v1/checks/8/answers': wrong, 'POST /api/v1/checks/9/answers': wrong });
    document.cookie = 'csrftoken=abc123; path=/';
    document.body.innerHTML = SERVER_CHECKS;
    const events = [7, 8, 9].map(submit);
    expect(events.every((event) => event.defaultPrevented)).toBe(true);
    expect(button(7)).toHaveTextContent('Checking…');
    expect(button(7)).toBeDisabled();
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls.map((call) => [call.url, call.body])).toEqual([
      ['/api/v1/checks/7/answers', { answer: { value: '128' } }],
      ['/api/v1/checks/8/answers', { answer: { options: ['b'] } }],
      ['/api/v1/checks/9/answers', { answer: { items: ['y', 'x'] } }],
    ]);
    expect(calls.every((call) => call.headers.get('X-CSRFToken') === 'abc123')).toBe(true);
    expect([7, 8, 9].map((id) => takeEarlyAnswer(id)?.draft)).toEqual(['128', ['b'], ['y', 'x']]);
    expect(takeEarlyAnswer(7)).toBeNull();
  });

  it('shows the server’s verdict in the card and keeps its reply for the app', async () => {
    mockApi({
      'POST /api/v1/checks/7/answers': { body: result({ feedback: ['That counts the layers, not the width.'] }) },
      'POST /api/v1/checks/8/answers': { body: result({ correct: true, passed: true, xp_awarded: 17, explanation: 'One vector per token.' }) },
    });
    document.body.innerHTML = SERVER_CHECKS;
    submit(7);
    submit(8);
    await waitFor(() => expect(shown(8)).toBe('Right! +17 XPOne vector per token.'));
    expect(shown(7)).toBe('Not quite.That counts the layers, not the width.Try again.');
    // A second try waits for the app, which counts the tries.
    expect(button(7)).toHaveTextContent('Check answer');
    expect(button(7)).toBeDisabled();
    const reply = await takeEarlyAnswer(8)?.sent;
    expect(await reply?.json()).toMatchObject({ correct: true, xp_awarded: 17 });
  });

  it('says why an unreadable answer was not taken, in the server’s words', async () => {
    mockApi({
      'POST /api/v1/checks/7/answers': {
        status: 400,
        body: { type: 'validation_error', title: 'Invalid input.', status: 400, detail: 'The answer is not valid.', errors: { answer: ['“seven hundred” is not a number.'] } },
      },
    });
    document.body.innerHTML = SERVER_CHECKS;
    submit(7);
    await waitFor(() => expect(shown(7)).toBe('“seven hundred” is not a number.'));
  });

  it('says what is missing, and sends nothing', () => {
    const { calls } = mockApi({});
    document.body.innerHTML = SERVER_CHECKS;
    [11, 12, 10].forEach(submit);
    // The app's own words (features/checks/kinds.test.ts holds the two to the same).
    expect([11, 12, 10].map(shown)).toEqual(['Type a number first.', 'Pick an option first.', 'Pick the options that are right first.']);
    expect(button(11)).toBeEnabled();
    expect(calls).toEqual([]);
    expect(takeEarlyAnswer(12)).toEqual({ draft: [] });
  });

  it('leaves the answer to the app when the server cannot be reached', async () => {
    failNextRequest();
    document.body.innerHTML = SERVER_CHECKS;
    submit(7);
    await expect(takeEarlyAnswer(7)?.sent).rejects.toThrow();
    expect(button(7)).toHaveTextContent('Checking…');
  });

  it('leaves a form the app handles alone', () => {
    document.body.innerHTML = SERVER_CHECKS;
    const form = document.querySelector('#block-7 form') as HTMLFormElement;
    form.addEventListener('submit', (event) => event.preventDefault());
    submit(7);
    expect(button(7)).toHaveTextContent('Check answer');
    expect(takeEarlyAnswer(7)).toBeNull();
  });
});
