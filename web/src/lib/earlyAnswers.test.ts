import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeEarlyAnswer } from './earlyAnswers';

/** index.html's inline scripts, run as the browser runs them while the server's page shows. */
function runIndexScripts() {
  const html = readFileSync(join(import.meta.dirname, '..', '..', 'index.html'), 'utf8');
  const script = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]).find((body) => body.includes('lpEarlyAnswers'));
  expect(script, 'index.html has the early answers script').toBeTruthy();
  new Function(script as string)();
}

// The server's check cards (pages/templates/pages/web/check.html), reduced to what the script reads.
const SERVER_CHECKS = `
<section class="check-card" id="block-7"><form class="check-form"><input type="text" value="128"><button type="submit">Check answer</button></form></section>
<section class="check-card" id="block-8"><form class="check-form"><input type="radio" value="a"><input type="radio" value="b" checked><button type="submit">Check answer</button></form></section>
<section class="check-card" id="block-9"><form class="check-form"><ol><li data-item="y"></li><li data-item="x"></li></ol><button type="submit">Check answer</button></form></section>`;

const submit = (id: string) => {
  const form = document.querySelector(`#${id} form`) as HTMLFormElement;
  const event = new Event('submit', { bubbles: true, cancelable: true });
  form.dispatchEvent(event);
  return event;
};

describe('a check answered on the server page, before the app (index.html)', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('keeps each kind’s answer for the app, says Checking… and does not reload the page', () => {
    runIndexScripts();
    document.body.innerHTML = SERVER_CHECKS;
    const events = ['block-7', 'block-8', 'block-9'].map(submit);
    expect(events.every((event) => event.defaultPrevented)).toBe(true);
    expect(document.querySelector('#block-7 button')).toHaveTextContent('Checking…');
    expect(document.querySelector('#block-7 button')).toBeDisabled();
    expect(takeEarlyAnswer(7)).toEqual({ draft: '128' });
    expect(takeEarlyAnswer(8)).toEqual({ draft: ['b'] });
    expect(takeEarlyAnswer(9)).toEqual({ draft: ['y', 'x'] });
    expect(takeEarlyAnswer(7)).toBeNull();
  });

  it('leaves a form the app handles alone', () => {
    runIndexScripts();
    document.body.innerHTML = SERVER_CHECKS;
    const form = document.querySelector('#block-7 form') as HTMLFormElement;
    form.addEventListener('submit', (event) => event.preventDefault());
    submit('block-7');
    expect(document.querySelector('#block-7 button')).toHaveTextContent('Check answer');
    expect(takeEarlyAnswer(7)).toBeNull();
  });
});
