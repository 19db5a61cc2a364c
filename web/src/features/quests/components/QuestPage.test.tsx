import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recordAnswer, recordCompletion } from '@/lib/progressStore';
import { allauthConfig, mockApi, signedInSession, signedOutSession, type Routes } from '@/test/mockApi';
import { achievements, levels, progressSummary, quest } from '@/test/fixtures';
import { renderApp } from '@/test/render';

function questRoutes(extra: Routes = {}) {
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /api/v1/session': signedOutSession,
    'GET /api/v1/quests/transformers/': { body: quest },
    'GET /api/v1/levels/': { body: levels },
    'GET /api/v1/achievements/': { body: achievements },
    ...extra,
  });
}

/** The outline's row for a lesson, and what it says. */
const row = (title: string) => screen.getByRole('link', { name: title }).closest('li')!;

describe('quest outline', () => {
  it('marks a signed-in learner’s lessons done, started and untouched', async () => {
    const marked = { ...quest, lessons_completed: 1, percent_complete: 1, lessons: quest.lessons.map((lesson) => ({ ...lesson, completed: lesson.slug === 'lesson-1' })) };
    questRoutes({
      'GET /api/v1/session': signedInSession(),
      'GET /api/v1/quests/transformers/': { body: marked },
      'GET /api/v1/me/lessons/started': { body: { started: ['lesson-1', 'lesson-2'] } },
      'GET /api/v1/me/progress?quest=transformers': { body: progressSummary({ lessons_completed: 1, completed_lessons: ['lesson-1'] }) },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    });
    renderApp('/quests/transformers');
    expect(await screen.findByText(/1 started/)).toHaveTextContent('1% complete · 1/94 lessons · 1 started');
    expect(row('Lesson 1')).toHaveClass('done');
    expect(row('Lesson 1')).toHaveTextContent('✓Lesson 1 (completed)');
    expect(row('Lesson 2')).toHaveClass('started');
    expect(row('Lesson 2')).toHaveTextContent('◐Lesson 2 (started)');
    expect(row('Lesson 3').className).toBe('');
    expect(row('Lesson 3')).toHaveTextContent(/^○Lesson 3 ·/);
  });

  it('marks a signed-out learner’s lessons from this device', async () => {
    recordCompletion('lesson-1');
    recordAnswer({ check: 61, lesson: 'lesson-3', answer: { value: '1' }, correct: false });
    questRoutes();
    renderApp('/quests/transformers');
    expect(await screen.findByText(/1 started/)).toHaveTextContent('1% complete · 1/94 lessons · 1 started');
    expect(within(row('Lesson 1')).getByText('(completed)')).toBeInTheDocument();
    expect(within(row('Lesson 3')).getByText('(started)')).toBeInTheDocument();
    expect(within(row('Lesson 2')).queryByText(/\((completed|started)\)/)).not.toBeInTheDocument();
  });

  it('groups the lessons under their units’ headings, in order', async () => {
    const slugs = quest.lessons.map((lesson) => lesson.slug);
    const grouped = {
      ...quest,
      units: [
        { title: null, lessons: slugs.slice(0, 2) },
        { title: 'Tokens', lessons: slugs.slice(2, 4) },
        { title: 'Embeddings', lessons: slugs.slice(4) },
      ],
    };
    questRoutes({ 'GET /api/v1/quests/transformers/': { body: grouped } });
    renderApp('/quests/transformers');
    const headings = await screen.findAllByRole('heading', { level: 2 });
    expect(headings.map((heading) => heading.textContent)).toEqual(['Tokens', 'Embeddings']);
    const tokens = headings[0].closest('section')!;
    expect(within(tokens).getAllByRole('link').map((link) => link.textContent)).toEqual(['Lesson 3', 'Lesson 4']);
    expect(within(tokens).getByRole('list')).toHaveAttribute('start', '3');
    expect(row('Lesson 1').closest('section')!.querySelector('h2')).toBeNull();
    expect(within(headings[1].closest('section')!).getAllByRole('listitem')).toHaveLength(90);
  });
});
