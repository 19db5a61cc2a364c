import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { recordCompletion } from '@/lib/progressStore';
import { mockApi } from '@/test/mockApi';
import { signedOutLessonRoutes } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import type { GameState } from '../api';
import { GameBarView, streakLabel } from './GameBar';

const game = (over: Partial<GameState> = {}): GameState => ({
  signedIn: true,
  level: { number: 2, name: 'Positional Encoding' },
  xp: 300,
  xpToGo: 180,
  nextLevel: { number: 3, name: 'Query', xp_required: 480 },
  streak: { current: 3, today: 'done' },
  xpToday: 12,
  goal: { xp: 20, xp_today: 12, met: false, chosen: true },
  ...over,
});

const view = (state: GameState) =>
  render(
    <MemoryRouter>
      <GameBarView game={state} />
    </MemoryRouter>,
  );

describe('the game bar', () => {
  it('says the streak with today’s state', () => {
    expect(streakLabel({ current: 3, today: 'done' })).toBe('3-day streak, today done');
    expect(streakLabel({ current: 1, today: 'to_do' })).toBe('1-day streak, today still to do');
    expect(streakLabel({ current: 9, today: 'frozen' })).toBe('9-day streak, today kept by a streak freeze');
    expect(streakLabel({ current: 0, today: 'none' })).toBe('No streak yet');
  });

  it('shows level, XP, streak and today’s goal, short on screen and in full for screen readers', () => {
    view(game());
    const bar = screen.getByRole('region', { name: 'Your game' });
    expect(within(bar).getByText('Level 2 · Positional Encoding')).toHaveClass('visually-hidden');
    expect(bar).toHaveTextContent('Lv 2 · Positional Encoding');
    expect(within(bar).getByText('300 XP')).toBeInTheDocument();
    expect(within(bar).getByText('3-day streak, today done')).toBeInTheDocument();
    expect(within(bar).getByText('12/20 XP today')).toBeInTheDocument();
    expect(within(bar).getByRole('progressbar', { name: "Today's goal" })).toHaveAttribute('aria-valuenow', '12');
  });

  it('marks a goal met and a frozen day', () => {
    view(game({ goal: { xp: 20, xp_today: 35, met: true, chosen: true }, streak: { current: 8, today: 'frozen' } }));
    const bar = screen.getByRole('region', { name: 'Your game' });
    expect(screen.getByTestId('game-goal')).toHaveClass('goal-met');
    expect(within(bar).getByText(', daily goal reached')).toBeInTheDocument();
    expect(within(bar).getByRole('progressbar', { name: "Today's goal" })).toHaveAttribute('aria-valuenow', '20');
    expect(within(bar).getByText('8-day streak, today kept by a streak freeze')).toBeInTheDocument();
    expect(bar.querySelector('.game-streak.streak-frozen svg')).not.toBeNull();
  });

  it('signed out, reads this device’s events and leaves the goal to an account', async () => {
    recordCompletion('lesson-1');
    recordCompletion('lesson-2');
    mockApi(signedOutLessonRoutes());
    renderApp('/lessons/embedding-dimension');
    const bar = await screen.findByRole('region', { name: 'Your game' });
    expect(await within(bar).findByText('100 XP')).toBeInTheDocument();
    expect(within(bar).getByText('Level 0 · Token')).toBeInTheDocument();
    expect(within(bar).getByText('1-day streak, today done')).toBeInTheDocument();
    expect(within(bar).getByText('100 XP today')).toBeInTheDocument();
    expect(within(bar).getByRole('link', { name: 'Daily goal: sign up to set one' })).toHaveAttribute('href', '/signup');
  });
});
