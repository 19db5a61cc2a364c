import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recordAnswer, recordCompletion } from '@/lib/progressStore';
import type { AchievementList, ProgressSummary } from '@/lib/types';
import { allauthConfig, mockApi, signedInSession, signedOutSession } from '@/test/mockApi';
import { achievements, levels, progressSummary, quest } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const questList = { body: { count: 1, next: null, previous: null, results: [{ slug: quest.slug, title: quest.title, description: quest.description }] } };

function homeRoutes(extra: Record<string, unknown> = {}) {
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /api/v1/session': signedOutSession,
    'GET /api/v1/quests/': questList,
    'GET /api/v1/quests/transformers/': { body: quest },
    'GET /api/v1/levels/': { body: levels },
    'GET /api/v1/achievements/': { body: achievements },
    'GET /api/v1/me/lessons/started': { body: { started: [] } },
    ...(extra as Record<string, { body: unknown }>),
  });
}

// Three lessons done (not lesson-3), a goal on its way, a streak to keep.
const summary = (overrides: Partial<ProgressSummary>) =>
  progressSummary({
    level: { number: 1, name: 'Embedding' },
    xp: 160,
    lessons_completed: 3,
    percent_complete: 3,
    streak: { current: 4, best: 9, today: 'to_do', freezes: 1 },
    daily_goal: { xp: 30, xp_today: 20, met: false, chosen: true },
    completed_lessons: ['lesson-1', 'lesson-2', 'lesson-4'],
    ...overrides,
  });

const unlocked = (slug: string, title: string, at: string | null): AchievementList['results'][number] => ({
  slug,
  title,
  description: '',
  icon: 'trophy',
  xp_bonus: 0,
  rule: { kind: 'lessons_completed', summary: '', threshold: 1, tag: null, quest: null },
  unlocked: at !== null,
  unlocked_at: at,
  progress: { current: at ? 1 : 0, target: 1 },
});

describe('home page', () => {
  it('offers a first visit the start of the quest', async () => {
    homeRoutes();
    renderApp('/');
    const start = await screen.findByRole('link', { name: 'Start the quest' });
    expect(start).toHaveAttribute('href', '/lessons/lesson-1');
    expect(screen.getByRole('heading', { level: 1, name: quest.title })).toBeInTheDocument();
    expect(screen.getByText(/94 lessons · 4700 XP to earn · first up: Lesson 1/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Continue' })).not.toBeInTheDocument();
    // The quest list stays below.
    expect(screen.getByRole('heading', { level: 2, name: 'Quests' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: quest.title })).toHaveAttribute('href', '/quests/transformers');
  });

  it('continues a signed-out learner at the first lesson not done, from this device', async () => {
    recordCompletion('lesson-1');
    recordCompletion('lesson-3');
    homeRoutes();
    renderApp('/');
    const next = await screen.findByRole('link', { name: 'Continue: Lesson 2' });
    expect(next).toHaveAttribute('href', '/lessons/lesson-2');
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Continue' });
    expect(card).toHaveTextContent('2% done · 2/94 lessons');
    expect(within(card).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');
    const today = screen.getByRole('region', { name: 'Today' });
    expect(today).toHaveTextContent('Your progress is kept on this device.');
    expect(within(today).getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/signup');
    const recent = screen.getByRole('region', { name: 'Recent achievements' });
    expect(recent).toHaveTextContent('Achievements are earned with an account.');
    expect(within(recent).getByRole('link', { name: 'See your progress toward them' })).toHaveAttribute('href', '/achievements');
    expect(screen.queryByRole('link', { name: 'Start the quest' })).not.toBeInTheDocument();
  });

  it('shows a signed-in learner the server progress, goal, streak and the last three achievements', async () => {
    homeRoutes({
      'GET /api/v1/session': signedInSession(),
      'GET /api/v1/me/progress?quest=transformers': { body: summary({}) },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
      'GET /api/v1/achievements/': {
        body: {
          count: 5,
          unlocked_count: 4,
          results: [
            unlocked('first-token', 'First token', '2026-11-20T10:00:00Z'),
            unlocked('growing', 'Growing context window', '2026-11-28T10:00:00Z'),
            unlocked('locked', 'Still locked', null),
            unlocked('halfway', 'Halfway through the stack', '2026-11-25T10:00:00Z'),
            unlocked('tokenizer', 'Tokenizer whisperer', '2026-11-29T10:00:00Z'),
          ],
        },
      },
    });
    renderApp('/');
    // lesson-3 is the first the server has not recorded.
    expect(await screen.findByRole('link', { name: 'Continue: Lesson 3' })).toHaveAttribute('href', '/lessons/lesson-3');
    expect(screen.getByRole('region', { name: 'Continue' })).toHaveTextContent('3% done · 3/94 lessons');
    const today = screen.getByRole('region', { name: 'Today' });
    expect(today).toHaveTextContent('Daily goal: 20 of 30 XP');
    expect(within(today).getByRole('progressbar', { name: "Today's XP toward the daily goal" })).toHaveAttribute('aria-valuenow', '20');
    expect(within(today).getByTestId('home-streak')).toHaveTextContent('4-day streak · learn today to keep it');
    expect(today).toHaveTextContent('1 streak freeze held · best: 9 days');
    const recent = screen.getByRole('region', { name: 'Recent achievements' });
    const items = await within(recent).findAllByRole('listitem');
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual([
      'Tokenizer whisperer',
      'Growing context window',
      'Halfway through the stack',
    ]);
    expect(within(recent).getByRole('link', { name: 'All achievements' })).toHaveAttribute('href', '/achievements');
  });

  it('asks a signed-in learner without a goal to set one, and says when the goal is met', async () => {
    homeRoutes({
      'GET /api/v1/session': signedInSession(),
      'GET /api/v1/me/progress?quest=transformers': {
        body: summary({ daily_goal: { xp: null, xp_today: 50, met: false, chosen: false }, streak: { current: 0, best: 0, today: 'none', freezes: 0 } }),
      },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    });
    renderApp('/');
    const today = await screen.findByRole('region', { name: 'Today' });
    expect(today).toHaveTextContent('Today: 50 XP.');
    expect(within(today).getByRole('link', { name: 'Set a daily goal' })).toHaveAttribute('href', '/settings#daily-goal');
    expect(within(today).getByRole('link', { name: 'Your last 12 weeks' })).toHaveAttribute('href', '/progress');
    expect(within(today).getByTestId('home-streak')).toHaveTextContent('No streak yet');
    expect(await within(screen.getByRole('region', { name: 'Recent achievements' })).findByText('None yet.')).toBeInTheDocument();
  });

  it('says when the quest is complete', async () => {
    const all = quest.lessons.map((lesson) => lesson.slug);
    homeRoutes({
      'GET /api/v1/session': signedInSession(),
      'GET /api/v1/me/progress?quest=transformers': {
        body: summary({ lessons_completed: 94, percent_complete: 100, completed_lessons: all, daily_goal: { xp: 20, xp_today: 40, met: true, chosen: true } }),
      },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    });
    renderApp('/');
    const card = await screen.findByRole('region', { name: 'Quest complete' });
    expect(card).toHaveTextContent('100% done · 94/94 lessons');
    expect(screen.queryByRole('link', { name: /^Continue/ })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Today' })).toHaveTextContent('Daily goal: 40 of 20 XP · met ✓');
  });

  it('counts the lessons done, started and untouched, and lists the started ones', async () => {
    homeRoutes({
      'GET /api/v1/session': signedInSession(),
      'GET /api/v1/me/progress?quest=transformers': { body: summary({}) },
      'GET /api/v1/me/lessons/started': { body: { started: ['lesson-2', 'lesson-3', 'lesson-7'] } },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    });
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Continue: Lesson 3 (started)' })).toHaveAttribute('href', '/lessons/lesson-3');
    const card = screen.getByRole('region', { name: 'Continue' });
    expect(within(card).getByTestId('lesson-counts')).toHaveTextContent('3 done · 2 started · 89 untouched');
    const started = within(card).getByRole('list', { name: 'Also started' });
    expect(within(started).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/lessons/lesson-7']);
  });

  it('welcomes back a signed-out learner who has answered a check, rather than offering the start', async () => {
    recordAnswer({ check: 61, lesson: 'lesson-1', answer: { value: '768' }, correct: false });
    homeRoutes();
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Continue: Lesson 1 (started)' })).toBeInTheDocument();
    expect(screen.getByTestId('lesson-counts')).toHaveTextContent('0 done · 1 started · 93 untouched');
    expect(screen.queryByRole('link', { name: 'Start the quest' })).not.toBeInTheDocument();
  });
});
