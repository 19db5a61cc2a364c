// A lesson with one check of each type, and the check endpoints answering for it as the server
// does (exercises/services/checks.py): graded at once, recorded and paid signed in, only graded
// signed out.
import type { Handler, MockResponse } from './mockApi';
import { lesson } from './fixtures';
import type { CheckBlock, CheckResult, CheckStanding, LessonDetail } from '@/lib/types';

export const numericCheck: CheckBlock = {
  id: 61,
  kind: 'check',
  html: '<p>GPT-2 small has d_model = 768 and 12 heads. How many dimensions does each head get?</p>',
  check: { key: 'head-dimension', type: 'numeric', reveal_after: 3, unit: 'dimensions' },
};
export const choiceCheck: CheckBlock = {
  id: 62,
  kind: 'check',
  html: '<p>Which number is d_model for GPT-2 small?</p>',
  check: {
    key: 'gpt2-width',
    type: 'choice',
    reveal_after: 2,
    multiple: false,
    options: [
      { id: 'o64', text: '64' },
      { id: 'o768', text: '768' },
      { id: 'o3072', text: '3,072' },
    ],
  },
};
export const orderingCheck: CheckBlock = {
  id: 63,
  kind: 'check',
  html: '<p>Put the forward pass in order.</p>',
  check: {
    key: 'forward-pass',
    type: 'ordering',
    reveal_after: 3,
    items: [
      { id: 'blocks', text: 'Transformer blocks' },
      { id: 'ids', text: 'Token ids' },
      { id: 'logits', text: 'Logits' },
      { id: 'embeddings', text: 'Token embeddings' },
    ],
  },
};
export const RIGHT_ORDER = ['Token ids', 'Token embeddings', 'Transformer blocks', 'Logits'];
const RIGHT_IDS = ['ids', 'embeddings', 'blocks', 'logits'];

const EXPLANATIONS: Record<number, string> = {
  61: 'd_head = 768 / 12 = 64.',
  62: 'GPT-2 small is 768 wide.',
  63: 'Ids are embedded, the blocks transform them, the unembedding gives logits.',
};
const OPTION_EXPLANATIONS: Record<string, string> = {
  o64: 'That is one head’s width.',
  o768: 'Right: d_model = 768.',
  o3072: 'That is the feed-forward width, 4 × d_model.',
};

/** The reference lesson with a prose block and the three checks, in this order, between the others. */
export const checksLesson: LessonDetail = {
  ...lesson,
  blocks: [lesson.blocks[0], numericCheck, choiceCheck, lesson.blocks[1], orderingCheck],
};

/** A wrong answer's feedback, or null when the answer is right; throws for an unreadable one. */
function grade(check: number, answer: Record<string, unknown>): { correct: boolean; feedback: string[]; marks: CheckResult['marks'] } {
  if (check === 61) {
    const raw = String(answer.value ?? '');
    if (!/^[\d.,\s]+$/.test(raw.trim())) throw new Error(`We could not read '${raw}' as a number.`);
    const value = Number(raw.replace(/[,\s]/g, ''));
    return { correct: value === 64, feedback: value === 768 ? ['That is d_model itself; divide it among the heads.'] : [], marks: {} };
  }
  if (check === 62) {
    const picked = answer.options as string[];
    const correct = picked.length === 1 && picked[0] === 'o768';
    const shown = correct ? Object.keys(OPTION_EXPLANATIONS) : picked;
    const marks = Object.fromEntries(shown.map((id) => [id, { correct: id === 'o768', explanation: OPTION_EXPLANATIONS[id] }]));
    return { correct, feedback: correct ? [] : picked.filter((id) => id !== 'o768').map((id) => OPTION_EXPLANATIONS[id]), marks };
  }
  const order = answer.items as string[];
  const inPlace = order.filter((id, index) => RIGHT_IDS[index] === id).length;
  const correct = inPlace === order.length;
  return {
    correct,
    feedback: correct ? [] : [`${inPlace} of ${order.length} items are in the right place.`],
    marks: Object.fromEntries(order.map((id, index) => [id, { correct: RIGHT_IDS[index] === id }])),
  };
}

const SOLUTIONS: Record<number, unknown> = {
  61: { value: '64', unit: 'dimensions' },
  62: { options: ['o768'] },
  63: { items: RIGHT_IDS },
};

const invalid = (detail: string): MockResponse => ({
  status: 400,
  body: { type: 'validation_error', title: 'Invalid input.', status: 400, detail: `answer: ${detail}`, errors: { answer: [detail] } },
});

/**
 * The check endpoints for `checksLesson`. Signed in, `state` keeps each check's standing and
 * pays `share` XP on a first right answer that was not revealed.
 */
export function checkRoutes({ signedIn, share = 17, started = [] as string[] }: { signedIn: boolean; share?: number; started?: string[] }) {
  const standings = new Map<number, CheckStanding>();
  const revealAfter = (id: number) => checksLesson.blocks.find((block): block is CheckBlock => block.id === id && block.kind === 'check')?.check.reveal_after ?? 3;
  const standing = (id: number): CheckStanding =>
    standings.get(id) ?? { check: id, tries: 0, wrong_tries: 0, passed: false, passed_first_try: false, revealed: false, can_reveal: false, xp_awarded: 0 };
  const answer =
    (id: number): Handler =>
    ({ body }) => {
      let graded;
      try {
        graded = grade(id, (body as { answer: Record<string, unknown> }).answer);
      } catch (error) {
        return invalid((error as Error).message);
      }
      const explanation = graded.correct ? EXPLANATIONS[id] : null;
      if (!signedIn) {
        const result: CheckResult = { ...graded, explanation, tries: 0, wrong_tries: 0, can_reveal: false, passed: graded.correct, revealed: false, xp_awarded: 0, lesson: null, new_achievements: [] };
        return { body: result };
      }
      const before = standing(id);
      const passedNow = graded.correct && !before.passed;
      const tries = before.tries + 1;
      const wrong = before.wrong_tries + (graded.correct ? 0 : 1);
      const after: CheckStanding = {
        check: id,
        tries,
        wrong_tries: wrong,
        passed: before.passed || graded.correct,
        passed_first_try: before.passed ? before.passed_first_try : passedNow && tries === 1 && !before.revealed,
        revealed: before.revealed,
        can_reveal: !(before.passed || graded.correct) && wrong >= revealAfter(id),
        xp_awarded: before.xp_awarded + (passedNow && !before.revealed ? share : 0),
      };
      const wasComplete = [61, 62, 63].every((each) => standing(each).passed);
      standings.set(id, after);
      const passed = [61, 62, 63].filter((each) => standing(each).passed).length;
      const result: CheckResult = {
        ...graded,
        explanation: explanation ?? (after.revealed ? EXPLANATIONS[id] : null),
        tries,
        wrong_tries: wrong,
        can_reveal: after.can_reveal,
        passed: after.passed,
        revealed: after.revealed,
        xp_awarded: passedNow && !after.revealed ? share : 0,
        lesson: { slug: checksLesson.slug, checks_passed: passed, checks_total: 3, complete: passed === 3, completed_now: passed === 3 && !wasComplete },
        new_achievements: [],
      };
      return { body: result };
    };
  const reveal =
    (id: number): Handler =>
    () => {
      const before = standing(id);
      if (signedIn && !before.passed && before.wrong_tries < revealAfter(id)) {
        return { status: 409, body: { type: 'reveal_not_allowed', title: 'Conflict.', status: 409, detail: 'Try the check a few more times before revealing its answer.', errors: {} } };
      }
      if (signedIn && !before.passed) standings.set(id, { ...before, revealed: true });
      return { body: { solution: SOLUTIONS[id], explanation: EXPLANATIONS[id] } };
    };
  const routes: Record<string, Handler | MockResponse> = {};
  for (const id of [61, 62, 63]) {
    routes[`POST /api/v1/checks/${id}/answers`] = answer(id);
    routes[`POST /api/v1/checks/${id}/reveal`] = reveal(id);
  }
  if (signedIn) {
    routes[`GET /api/v1/me/lessons/${checksLesson.slug}/checks`] = () => ({ body: { lesson: checksLesson.slug, checks: [61, 62, 63].map(standing) } });
    routes['GET /api/v1/me/lessons/started'] = () => ({ body: { started } });
  }
  return { routes, standings };
}
