import { onlineManager } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { readReviews } from '@/features/reviews/store';
import type { ReviewCard, ReviewQueue, ReviewResult } from '@/lib/types';
import { choiceCheck, numericCheck, orderingCheck } from '@/test/checks';
import { allauthConfig, failNextRequest, mockApi, signedInSession, type Handler, type MockResponse } from '@/test/mockApi';
import { achievements, levels, progressSummary, quest } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const card = (check: ReviewCard['check']): ReviewCard => ({
  check,
  lesson: { slug: 'attention', title: 'Attention heads' },
  due: '2026-11-29T08:00:00Z',
  reps: 2,
  lapses: 0,
});

const queue = (cards: ReviewCard[], next: string | null = null): ReviewQueue => ({ due: cards.length, next_due_at: next, cards });

function result(overrides: Partial<ReviewResult>): ReviewResult {
  return {
    correct: true,
    feedback: [],
    marks: {},
    explanation: 'd_head = 768 / 12 = 64.',
    solution: null,
    scheduled: true,
    rating: 'good',
    due: '2026-12-08T08:00:00Z',
    xp_awarded: 2,
    duplicate: false,
    ...overrides,
  };
}

function routes(body: ReviewQueue, answer: Handler, due = body.due, extra: Record<string, Handler | MockResponse> = {}) {
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    'GET /api/v1/me/progress': { body: progressSummary() },
    'GET /api/v1/me/progress?quest=transformers': { body: progressSummary() },
    'GET /api/v1/me/reviews': { body },
    'GET /api/v1/me/reviews/summary': { body: { due, next_due_at: body.next_due_at } },
    [`POST /api/v1/me/reviews/${numericCheck.id}/answers`]: answer,
    [`POST /api/v1/me/reviews/${choiceCheck.id}/answers`]: answer,
    [`POST /api/v1/me/reviews/${orderingCheck.id}/answers`]: answer,
    ...extra,
  });
}

afterEach(() => onlineManager.setOnline(true));

describe('the Review page', () => {
  it('asks the due cards one by one with the lesson’s feedback, then sums up', async () => {
    const { calls } = routes(queue([card(numericCheck), card(choiceCheck)]), ({ url, body }) => {
      const picked = (body as { answer: { value?: string } }).answer;
      if (url.includes(`/${numericCheck.id}/`)) {
        return picked.value === '64'
          ? { body: result({}) }
          : { body: result({ correct: false, feedback: ['That is d_model itself; divide it among the heads.'], solution: { value: '64', unit: 'dimensions' }, rating: 'again', xp_awarded: 1 }) };
      }
      return { body: result({ explanation: 'GPT-2 small is 768 wide.', marks: { o768: { correct: true, explanation: 'Right: d_model = 768.' } } }) };
    });
    const user = userEvent.setup();
    renderApp('/review');

    const first = await screen.findByRole('region', { name: 'Card 1 of 2' });
    expect(within(first).getByRole('link', { name: 'Attention heads' })).toHaveAttribute('href', '/lessons/attention');
    await user.type(within(first).getByRole('textbox', { name: 'Your answer' }), '768{Enter}');
    const status = within(first).getAllByRole('status').at(-1)!;
    expect(await within(status).findByText(/Not quite/)).toBeInTheDocument();
    expect(status).toHaveTextContent('That is d_model itself; divide it among the heads.');
    expect(status).toHaveTextContent('The answer');
    expect(status).toHaveTextContent('64 dimensions');
    expect(status).toHaveTextContent('d_head = 768 / 12 = 64.');
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post.body).toMatchObject({ answer: { value: '768' } });
    expect(typeof (post.body as { id: string }).id).toBe('string');
    expect((post.body as { duration_ms: number }).duration_ms).toBeGreaterThanOrEqual(0);

    // The keyboard goes on: the Next button has the focus.
    expect(within(first).getByRole('button', { name: 'Next card' })).toHaveFocus();
    await user.keyboard('{Enter}');
    const second = await screen.findByRole('region', { name: 'Card 2 of 2' });
    expect(within(second).getByRole('heading', { name: 'Card 2 of 2' })).toHaveFocus();
    await user.click(within(second).getByRole('radio', { name: '768' }));
    await user.click(within(second).getByRole('button', { name: 'Check answer' }));
    expect(await within(second).findByText(/Right! \+2 XP/)).toBeInTheDocument();
    expect(within(second).getByText('✓ Right')).toBeInTheDocument();
    await user.click(within(second).getByRole('button', { name: 'Finish' }));

    expect(await screen.findByRole('heading', { name: 'Review done' })).toHaveFocus();
    expect(screen.getByTestId('review-score')).toHaveTextContent('1 of 2 right · +3 XP');
  });

  it('shuffles an ordering card afresh and posts every item', async () => {
    const { calls } = routes(queue([card(orderingCheck)]), () => ({ body: result({ correct: false, rating: 'again', solution: { items: ['ids', 'embeddings', 'blocks', 'logits'] } }) }));
    const user = userEvent.setup();
    renderApp('/review');
    const region = await screen.findByRole('region', { name: 'Card 1 of 1' });
    await user.click(within(region).getByRole('button', { name: 'Check answer' }));
    await within(region).findByText(/Not quite/);
    const body = calls.find((call) => call.method === 'POST')!.body as { answer: { items: string[] } };
    expect([...body.answer.items].sort()).toEqual(['blocks', 'embeddings', 'ids', 'logits']);
    expect(within(region).getAllByRole('status').at(-1)).toHaveTextContent('Token idsToken embeddingsTransformer blocksLogits');
  });

  it('says when the next card is due when nothing is', async () => {
    routes(queue([], '2026-12-01T09:30:00Z'), () => ({ status: 500 }));
    renderApp('/review');
    expect(await screen.findByRole('heading', { name: 'Nothing to review' })).toBeInTheDocument();
    expect(screen.getByTestId('review-next')).toHaveTextContent(/The next card is due .*2026/);
  });

  it('asks the server again on "Check for more": the cards just answered are not asked twice', async () => {
    let reads = 0;
    routes(queue([card(numericCheck)]), () => ({ body: result({}) }), 1, {
      'GET /api/v1/me/reviews': () => {
        reads += 1;
        return { body: reads === 1 ? queue([card(numericCheck)]) : queue([], '2026-12-08T08:00:00Z') };
      },
    });
    const user = userEvent.setup();
    renderApp('/review');
    const region = await screen.findByRole('region', { name: 'Card 1 of 1' });
    await user.type(within(region).getByRole('textbox', { name: 'Your answer' }), '64{Enter}');
    await user.click(await within(region).findByRole('button', { name: 'Finish' }));
    await user.click(await screen.findByRole('button', { name: 'Check for more' }));

    expect(await screen.findByRole('heading', { name: 'Nothing to review' })).toBeInTheDocument();
    expect(screen.getByTestId('review-next')).toHaveTextContent(/The next card is due .*2026/);
    expect(screen.queryByRole('region', { name: 'Card 1 of 1' })).not.toBeInTheDocument();
    expect(reads).toBe(2);
  });

  it('keeps an answer given offline on the device and syncs it when the network is back', async () => {
    let synced: unknown = null;
    routes(queue([card(numericCheck)]), () => ({ body: result({}) }));
    const user = userEvent.setup();
    renderApp('/review');
    const region = await screen.findByRole('region', { name: 'Card 1 of 1' });

    failNextRequest();
    await user.type(within(region).getByRole('textbox', { name: 'Your answer' }), '64');
    await user.click(within(region).getByRole('button', { name: 'Check answer' }));
    expect(await within(region).findByText('Saved on this device.')).toBeInTheDocument();
    const kept = readReviews(1);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ check: numericCheck.id, answer: { value: '64' } });

    routes(queue([]), () => ({ body: result({}) }));
    const { calls: after } = mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': signedInSession(),
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
      'GET /api/v1/me/progress': { body: progressSummary() },
      'GET /api/v1/me/progress?quest=transformers': { body: progressSummary() },
      'GET /api/v1/me/reviews/summary': { body: { due: 0, next_due_at: null } },
      'POST /api/v1/me/reviews/sync': ({ body }) => {
        synced = body;
        return { body: { accepted: 1, not_scheduled: 0, duplicates: 0, rejected: [], xp_awarded: 2 } };
      },
    });
    onlineManager.setOnline(false);
    onlineManager.setOnline(true);
    await waitFor(() => expect(readReviews(1)).toEqual([]));
    expect(synced).toMatchObject({ answers: [{ id: kept[0].id, check: numericCheck.id, answer: { value: '64' }, answered_at: kept[0].answered_at }] });
    expect(after.length).toBeGreaterThan(0);
  });
});

describe('the top bar and the home page', () => {
  it('show how many cards are due', async () => {
    routes(queue([card(numericCheck)]), () => ({ body: result({}) }), 5);
    renderApp('/progress');
    const link = await screen.findByTestId('review-link');
    await waitFor(() => expect(link).toHaveTextContent('5 to review'));
    expect(link).toHaveAttribute('href', '/review');
  });

  it('the home page says "5 to review" and leads there', async () => {
    routes(queue([card(numericCheck)]), () => ({ body: result({}) }), 5, {
      'GET /api/v1/quests/': { body: { count: 1, next: null, previous: null, results: [{ slug: quest.slug, title: quest.title, description: quest.description }] } },
      'GET /api/v1/quests/transformers/': { body: quest },
      'GET /api/v1/levels/': { body: levels },
      'GET /api/v1/achievements/': { body: achievements },
      'GET /api/v1/me/lessons/started': { body: { started: [] } },
      'GET /api/v1/me/progress?quest=transformers': { body: progressSummary({ lessons_completed: 3, completed_lessons: ['lesson-1'] }) },
    });
    renderApp('/');
    const region = await screen.findByRole('region', { name: 'Review' });
    expect(await within(region).findByTestId('home-review-count')).toHaveTextContent('5 to review');
    expect(within(region).getByRole('link', { name: 'Review now' })).toHaveAttribute('href', '/review');
  });
});
