import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { allauthConfig, mockApi, signedOutSession } from '@/test/mockApi';
import { achievements, lesson, levels, quest } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { INITIAL_DATA_ID, seedInitialData } from './initialData';
import { createQueryClient } from './providers';

function embed(data: unknown) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = INITIAL_DATA_ID;
  // As the server writes it: < > & escaped, the same JSON.
  script.textContent = JSON.stringify(data).replace(/</g, '\\u003C').replace(/>/g, '\\u003E').replace(/&/g, '\\u0026');
  document.body.append(script);
}

afterEach(() => document.getElementById(INITIAL_DATA_ID)?.remove());

describe('the data a page was served with', () => {
  it('renders the lesson on the first render without fetching it', () => {
    const { calls } = mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': signedOutSession,
      'GET /api/v1/levels/': { body: levels },
      'GET /api/v1/quests/transformers/': { body: quest },
      'GET /api/v1/achievements/': { body: achievements },
      [`GET /api/v1/lessons/${lesson.slug}/comments/`]: { body: { count: 0, results: [] } },
    });
    embed({ lesson });

    renderApp(`/lessons/${lesson.slug}`, seedInitialData);

    // No waiting: the first render has it.
    expect(screen.getByRole('heading', { level: 1, name: lesson.title })).toBeInTheDocument();
    expect(screen.queryByText('Loading the lesson…')).not.toBeInTheDocument();
    expect(calls.some((call) => call.url.startsWith(`/api/v1/lessons/${lesson.slug}/`) && !call.url.includes('comments'))).toBe(false);
    expect(document.getElementById(INITIAL_DATA_ID)).toBeNull();
  });

  it('renders the signed-out header on the first render from the reads served with the page', () => {
    const { calls } = mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      [`GET /api/v1/lessons/${lesson.slug}/comments/`]: { body: { count: 0, results: [] } },
    });
    embed({ lesson, quest, session: signedOutSession.body, levels, achievements });

    renderApp(`/lessons/${lesson.slug}`, seedInitialData);

    // No waiting and no read: the session, the curve, the outline and the achievements were served.
    const header = screen.getByRole('region', { name: 'Your progress' });
    expect(header).toHaveTextContent(`0/${quest.lessons.length} lessons`);
    expect(header).toHaveTextContent(`0/${achievements.count} achievements`);
    expect(screen.queryByText('Loading your progress…')).not.toBeInTheDocument();
    const reads = calls.map((call) => call.url);
    for (const url of ['/api/v1/session', '/api/v1/levels/', '/api/v1/achievements/', '/api/v1/quests/transformers/']) {
      expect(reads).not.toContain(url);
    }
  });

  it('renders the quest outline, with the marks it was served with, without fetching it', () => {
    const { calls } = mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': signedOutSession,
    });
    embed({ quest });

    renderApp('/quests/transformers', seedInitialData);

    expect(screen.getByRole('heading', { level: 1, name: quest.title })).toBeInTheDocument();
    expect(calls.some((call) => call.url.startsWith('/api/v1/quests/'))).toBe(false);
  });

  it('leaves the cache empty on a page without data', () => {
    const client = createQueryClient();
    seedInitialData(client);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });
});
