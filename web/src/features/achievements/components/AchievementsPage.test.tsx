import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recordCompletion } from '@/lib/progressStore';
import type { AchievementList } from '@/lib/types';
import { allauthConfig, mockApi, signedInSession, signedOutSession } from '@/test/mockApi';
import { quest } from '@/test/fixtures';
import { renderApp } from '@/test/render';

type Rule = AchievementList['results'][number]['rule'];
const achievement = (slug: string, rule: Partial<Rule>, progress: { current: number; target: number } | null = null) => ({
  slug,
  title: slug,
  description: `About ${slug}`,
  icon: 'trophy',
  xp_bonus: 0,
  rule: { kind: 'lessons_completed', summary: '', threshold: null, tag: null, quest: null, ...rule } as Rule,
  unlocked: false,
  unlocked_at: null,
  progress,
});

const tagged = { ...quest, lessons: quest.lessons.map((lesson, index) => (index < 4 ? { ...lesson, tags: ['tokenization'] } : lesson)) };

function routes(signedIn: boolean, results: AchievementList['results']) {
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /api/v1/session': signedIn ? signedInSession() : signedOutSession,
    'GET /api/v1/achievements/': { body: { count: results.length, unlocked_count: 0, results } },
    'GET /api/v1/quests/': { body: { count: 1, next: null, previous: null, results: [{ slug: 'transformers', title: quest.title, description: '' }] } },
    'GET /api/v1/quests/transformers/': { body: tagged },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
  });
}

const card = (title: string) => screen.getByRole('heading', { name: title }).closest('li') as HTMLElement;

describe('achievements page', () => {
  it('shows a signed-out learner the progress this device allows, and "sign in to track" for the rest', async () => {
    recordCompletion('lesson-1');
    recordCompletion('lesson-2');
    recordCompletion('lesson-9');
    routes(false, [
      achievement('first', { kind: 'lessons_completed', threshold: 1 }),
      achievement('ten-lessons', { kind: 'lessons_completed', threshold: 10 }),
      achievement('xp', { kind: 'xp_total', threshold: 500 }),
      achievement('halfway', { kind: 'quest_percent', threshold: 50, quest: 'transformers' }),
      achievement('tokenizer', { kind: 'tag_completed', tag: 'tokenization' }),
      achievement('streak', { kind: 'streak_days', threshold: 7 }),
    ]);
    renderApp('/achievements');
    expect(await screen.findByText('3 of 10 lessons')).toBeInTheDocument();
    expect(within(card('ten-lessons')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '3');
    expect(within(card('ten-lessons')).queryByText(/Reached on this device/)).not.toBeInTheDocument();
    expect(within(card('first')).getByText('1 of 1 lesson')).toBeInTheDocument();
    expect(within(card('first')).getByText(/Reached on this device/)).toHaveTextContent('Reached on this device: create an account to unlock it');
    expect(within(card('xp')).getByText('150 of 500 XP')).toBeInTheDocument();
    expect(within(card('halfway')).getByText('3% of 50%')).toBeInTheDocument();
    expect(within(card('tokenizer')).getByText('2 of 4 lessons tagged tokenization')).toBeInTheDocument();
    expect(within(card('streak')).getByTestId('achievement-progress')).toHaveTextContent('Sign in to track');
    expect(within(card('streak')).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows a signed-in learner the server progress in words', async () => {
    routes(true, [
      achievement('ten-lessons', { kind: 'lessons_completed', threshold: 10 }, { current: 4, target: 10 }),
      achievement('exercises', { kind: 'exercises_passed', threshold: 5 }, { current: 1, target: 5 }),
    ]);
    renderApp('/achievements');
    expect(await screen.findByText('4 of 10 lessons')).toBeInTheDocument();
    expect(within(card('exercises')).getByText('1 of 5 exercises passed')).toBeInTheDocument();
    expect(within(card('exercises')).getByRole('progressbar', { name: 'Progress toward exercises: 1 of 5 exercises passed' })).toHaveAttribute('aria-valuemax', '5');
    expect(screen.queryByText('Sign in to track')).not.toBeInTheDocument();
  });
});
