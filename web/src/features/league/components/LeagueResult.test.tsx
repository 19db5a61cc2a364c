import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mockApi';
import { myLeague, profile, signedInPageRoutes } from '@/test/fixtures';
import type { LeagueResult } from '@/lib/types';
import { renderApp } from '@/test/render';
import { ordinal, prefersReducedMotion, resultWords } from './LeagueResult';

const movedUp: LeagueResult = {
  week: '2026-03-09',
  week_last_day: '2026-03-15',
  tier_before: { rank: 2, name: 'Silver' },
  tier_after: { rank: 3, name: 'Gold' },
  rank: 3,
  members: 28,
  move: 'up',
};

describe('The week’s result', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says the move, the tier and the rank', () => {
    expect(resultWords(movedUp)).toEqual({ title: 'You moved up to Gold!', badge: '▲', sentence: 'You finished 3rd of 28 in the Silver league.' });
    const down = { ...movedUp, tier_after: { rank: 1, name: 'Bronze' as const }, rank: 27, move: 'down' as const };
    expect(resultWords(down).title).toBe('You moved down to Bronze');
    expect(resultWords({ ...movedUp, tier_after: movedUp.tier_before, move: 'stayed' }).title).toBe('You stayed in Silver');
  });

  it('counts in English ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 30, 111].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '30th', '111th']);
  });

  it('moves nothing for a learner who asked for less motion', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)' }));
    expect(prefersReducedMotion()).toBe(true);
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    expect(prefersReducedMotion()).toBe(false);
  });

  it('celebrates on the league page in a dialog, tells the server it was seen, and is gone once closed', async () => {
    let result: LeagueResult | null = movedUp;
    const { calls } = mockApi({
      ...signedInPageRoutes(),
      'GET /api/v1/me/': { body: profile },
      'GET /api/v1/me/league': () => ({ body: myLeague({ tier: { rank: 3, name: 'Gold' }, result }) }),
      'POST /api/v1/me/league/result/seen': () => {
        result = null;
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderApp('/league');

    const dialog = await screen.findByRole('dialog', { name: 'You moved up to Gold!' });
    expect(dialog).toHaveTextContent('Mar 9, 2026 – Mar 15, 2026: You finished 3rd of 28 in the Silver league.');
    expect(dialog).toHaveTextContent('This week you play in the Gold league.');
    const continueButton = within(dialog).getByRole('button', { name: 'Continue' });
    expect(continueButton).toHaveFocus();
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ week: '2026-03-09' }]));

    await user.click(continueButton);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Gold league' })).toBeInTheDocument();
  });

  it('shows nothing when the league carries no result', async () => {
    const { calls } = mockApi({ ...signedInPageRoutes(), 'GET /api/v1/me/': { body: profile }, 'GET /api/v1/me/league': { body: myLeague() } });
    renderApp('/league');
    expect(await screen.findByRole('heading', { level: 1, name: 'Silver league' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
