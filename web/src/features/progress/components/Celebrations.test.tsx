import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { allauthConfig, mockApi, signedInSession, type Answer } from '@/test/mockApi';
import { achievements, lesson, levels, progressSummary, quest } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import type { AchievementList, ProgressSummary } from '@/lib/types';

const FIRST_TOKEN = { slug: 'first-token', title: 'First token', description: 'Complete your first lesson.', icon: 'spark', xp_bonus: 10 };
const TEN_LESSONS = { slug: 'growing-context', title: 'Growing context window', description: 'Complete 10 lessons.', icon: 'window', xp_bonus: 25 };

const summary = (over: Partial<ProgressSummary> = {}) =>
  progressSummary({
    xp: 100,
    xp_into_level: 100,
    xp_to_go: 20,
    lessons_completed: 2,
    percent_complete: 2,
    streak: { current: 3, best: 3, today: 'to_do', freezes: 0 },
    completed_lessons: ['lesson-1', 'lesson-2'],
    ...over,
  });

function achievementList(unlocked: (typeof FIRST_TOKEN)[]): AchievementList {
  const all = [FIRST_TOKEN, TEN_LESSONS];
  return {
    ...achievements,
    unlocked_count: unlocked.length,
    results: all.map((item) => ({
      ...item,
      rule: { kind: 'lessons_completed', threshold: 1 } as never,
      unlocked: unlocked.includes(item),
      unlocked_at: unlocked.includes(item) ? '2026-12-01T10:00:00Z' : null,
      progress: null,
    })),
  };
}

/** A signed-in learner whose server state is `state.now` (tests move it on). */
function signedInRoutes(state: { progress: ProgressSummary; list: AchievementList }, complete?: () => Answer<'POST /api/v1/lessons/{slug}/complete'>) {
  const progress = () => ({ body: state.progress });
  return mockApi({
    ...(complete && { [`POST /api/v1/lessons/${lesson.slug}/complete`]: complete }),
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /api/v1/session': signedInSession(),
    [`GET /api/v1/lessons/${lesson.slug}/`]: { body: lesson },
    [`GET /api/v1/lessons/${lesson.slug}/comments/`]: { body: { count: 0, results: [] } },
    [`GET /api/v1/lessons/${lesson.slug}/subscription`]: { body: { lesson: lesson.slug, following: false, explicit: null, commented: false, follows_on_comment: true } },
    'GET /api/v1/levels/': { body: levels },
    'GET /api/v1/quests/transformers/': { body: quest },
    'GET /api/v1/quests/': { body: { count: 1, next: null, previous: null, results: [{ slug: 'transformers', title: quest.title, description: quest.description }] } },
    'GET /api/v1/achievements/': () => ({ body: state.list }),
    'GET /api/v1/me/progress?quest=transformers': progress,
    'GET /api/v1/me/progress': progress,
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    'PUT /api/v1/me/daily-goal': ({ body }) => {
      const xp = (body as { xp: number | null }).xp;
      state.progress = { ...state.progress, daily_goal: { ...state.progress.daily_goal, xp, chosen: true } };
      return { body: { xp } };
    },
  });
}

/** signedInRoutes whose POST /complete answers +10 XP and no level or achievement. */
function completingRoutes(state: { progress: ProgressSummary; list: AchievementList }) {
  return signedInRoutes(state, () => {
    state.progress = { ...state.progress, xp: 110, completed_lessons: [...state.progress.completed_lessons, lesson.slug] };
    return { body: { lesson: lesson.slug, completed_at: '2026-12-01T10:00:00Z', xp_awarded: 10, xp: 110, level_before: { number: 0, name: 'Token' }, level_after: { number: 0, name: 'Token' }, level_up: false, new_achievements: [] } };
  });
}

describe('celebrations', () => {
  it('a completion opens the level-up dialog and stacks a toast per achievement, then asks for a daily goal once', async () => {
    const state = { progress: summary(), list: achievementList([]) };
    const { calls } = signedInRoutes(state, () => {
      state.progress = summary({ level: { number: 1, name: 'Embedding' }, xp: 185, xp_to_go: 95, achievements_unlocked: 2, lessons_completed: 3 });
      state.list = achievementList([FIRST_TOKEN, TEN_LESSONS]);
      return {
        body: {
          lesson: lesson.slug,
          completed_at: '2026-12-01T10:00:00Z',
          xp_awarded: 50,
          xp: 185,
          level_before: { number: 0, name: 'Token' },
          level_after: { number: 1, name: 'Embedding' },
          level_up: true,
          new_achievements: [
            { slug: 'first-token', title: 'First token', xp_bonus: 10 },
            { slug: 'growing-context', title: 'Growing context window', xp_bonus: 25 },
          ],
        },
      };
    });
    const user = userEvent.setup();
    renderApp(`/lessons/${lesson.slug}`);
    const bar = await screen.findByRole('region', { name: 'Your game' });
    await within(bar).findByText('100 XP');
    // The bar and the lesson header share one /me/progress query.
    await screen.findByTestId('progress-header');
    expect(calls.filter((call) => call.url.startsWith('/api/v1/me/progress'))).toHaveLength(1);
    // Short on screen, in full for screen readers.
    expect(within(bar).getByText('Level 0 · Token')).toHaveClass('visually-hidden');
    expect(within(bar).getByText('3-day streak, today still to do')).toBeInTheDocument();
    expect(within(bar).getByRole('link', { name: 'Set a goal: choose the XP to earn each day' })).toHaveAttribute('href', '/settings#daily-goal');
    await user.click(await screen.findByRole('button', { name: 'Mark complete' }));

    const dialog = await screen.findByRole('dialog', { name: 'Level up!' });
    expect(within(dialog).getByTestId('level-up-name')).toHaveTextContent('Level 1 · Embedding');
    expect(await within(dialog).findByText('95 XP to Level 2 · Positional Encoding.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toHaveFocus();

    const live = document.querySelector('.toasts')!;
    expect(live).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(within(live as HTMLElement).getByText('Achievement unlocked: First token')).toBeInTheDocument());
    expect(within(live as HTMLElement).getByText('Complete your first lesson.')).toBeInTheDocument();
    expect(within(live as HTMLElement).getByText('Achievement unlocked: Growing context window')).toBeInTheDocument();
    expect(within(live as HTMLElement).getByText('Complete 10 lessons.')).toBeInTheDocument();
    expect(within(live as HTMLElement).getByText('+50 XP')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    // The refetched state brings the same level and achievements: nothing is shown twice.
    await within(bar).findByText('185 XP');
    expect(screen.queryByRole('dialog', { name: 'Level up!' })).not.toBeInTheDocument();
    expect(within(live as HTMLElement).getAllByText(/Achievement unlocked/)).toHaveLength(2);

    const prompt = await screen.findByRole('dialog', { name: 'Set a daily goal?' });
    await user.click(within(prompt).getByRole('radio', { name: /30 XP a day/ }));
    await user.click(within(prompt).getByRole('button', { name: 'Set goal' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Set a daily goal?' })).not.toBeInTheDocument());
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ xp: 30 });
    expect(await within(bar).findByText('0/30 XP today')).toBeInTheDocument();
  });

  it('"Not now" answers the goal question on the server, so no device asks again', async () => {
    const state = { progress: summary(), list: achievementList([]) };
    const { calls } = completingRoutes(state);
    const user = userEvent.setup();
    renderApp(`/lessons/${lesson.slug}`);
    await user.click(await screen.findByRole('button', { name: 'Mark complete' }));

    const prompt = await screen.findByRole('dialog', { name: 'Set a daily goal?' });
    await user.click(within(prompt).getByRole('button', { name: 'Not now' }));

    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ xp: null }));
    expect(state.progress.daily_goal.chosen).toBe(true);
    expect(screen.queryByRole('dialog', { name: 'Set a daily goal?' })).not.toBeInTheDocument();
  });

  it('a learner who answered the goal question on another device is not asked', async () => {
    const state = { progress: summary({ daily_goal: { xp: null, xp_today: 0, met: false, chosen: true } }), list: achievementList([]) };
    const { calls } = completingRoutes(state);
    const user = userEvent.setup();
    renderApp(`/lessons/${lesson.slug}`);
    await user.click(await screen.findByRole('button', { name: 'Mark complete' }));

    expect(await screen.findByText('Lesson complete')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((call) => call.url.startsWith('/api/v1/me/progress')).length).toBeGreaterThan(1));
    expect(screen.queryByRole('dialog', { name: 'Set a daily goal?' })).not.toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('celebrates what a graded exercise brought when /me/progress refreshes, once, and a goal met', async () => {
    const state = { progress: summary({ daily_goal: { xp: 20, xp_today: 10, met: false, chosen: true } }), list: achievementList([]) };
    signedInRoutes(state);
    const { client } = renderApp('/');
    const bar = await screen.findByRole('region', { name: 'Your game' });
    await within(bar).findByText('10/20 XP today');
    await waitFor(() => expect(localStorage.getItem('lp.celebrated.1')).toContain('achievements'));

    state.progress = summary({
      level: { number: 1, name: 'Embedding' },
      xp: 130,
      xp_to_go: 150,
      achievements_unlocked: 1,
      daily_goal: { xp: 20, xp_today: 40, met: true, chosen: true },
    });
    state.list = achievementList([FIRST_TOKEN]);
    await act(() => client.invalidateQueries({ queryKey: ['progress'] }));

    const dialog = await screen.findByRole('dialog', { name: 'Level up!' });
    expect(within(dialog).getByTestId('level-up-name')).toHaveTextContent('Level 1 · Embedding');
    expect(await screen.findByText('Achievement unlocked: First token')).toBeInTheDocument();
    expect(screen.getByText('Daily goal reached')).toBeInTheDocument();
    expect(within(bar).getByText(/40\/20 XP today/)).toBeInTheDocument();
    expect(within(bar).getByText(', daily goal reached')).toBeInTheDocument();
    // Nothing asks for a goal: no completion here, and the learner has one.
    expect(screen.queryByRole('dialog', { name: 'Set a daily goal?' })).not.toBeInTheDocument();
  });

  it('shows nothing old on the first look at a learner on this device', async () => {
    const state = { progress: summary({ level: { number: 1, name: 'Embedding' }, xp: 130, achievements_unlocked: 1 }), list: achievementList([FIRST_TOKEN]) };
    signedInRoutes(state);
    renderApp('/');
    const bar = await screen.findByRole('region', { name: 'Your game' });
    await within(bar).findByText('130 XP');
    await waitFor(() => expect(localStorage.getItem('lp.celebrated.1')).toContain('first-token'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText(/Achievement unlocked/)).not.toBeInTheDocument();
  });
});
