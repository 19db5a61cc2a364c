import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { choiceCheck, numericCheck } from '@/test/checks';
import { CHECK_KINDS } from './kinds';

describe('what a check misses before it can be sent', () => {
  // index.html's inline script says it on the server's page, before the app has arrived.
  const indexHtml = readFileSync(join(import.meta.dirname, '..', '..', '..', 'index.html'), 'utf8');

  it.each([
    ['a numeric check with no number', CHECK_KINDS.numeric.missing('  ', numericCheck.check)],
    ['a choice of one with none picked', CHECK_KINDS.choice.missing([], { ...choiceCheck.check, multiple: false })],
    ['a choice of several with none picked', CHECK_KINDS.choice.missing([], { ...choiceCheck.check, multiple: true })],
  ])('%s is said in the same words on the server’s page', (_, words) => {
    expect(words).toBeTruthy();
    expect(indexHtml).toContain(`'${words}'`);
  });

  it('an ordering always has an answer', () => {
    expect(CHECK_KINDS.ordering.missing(['a', 'b'], numericCheck.check)).toBeNull();
  });
});
