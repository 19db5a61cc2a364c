import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mockApi';
import { profile, signedInPageRoutes } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('The leaderboard’s period', () => {
  afterEach(() => vi.useRealTimers());

  it('shows the calendar week’s days and the time left on the learner’s clock', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-11T10:00:00Z'), toFake: ['Date'] });
    mockApi({
      ...signedInPageRoutes(),
      'GET /api/v1/me/': { body: { ...profile, name_invited_at: '2026-03-01T09:00:00Z' } },
      'GET /api/v1/leaderboard': {
        body: {
          period: 'week',
          since: '2026-03-08T11:00:00Z',
          ends_at: '2026-03-15T11:00:00Z',
          first_day: '2026-03-09',
          last_day: '2026-03-15',
          entries: [{ rank: 1, user_id: 1, display_name: 'Ada', xp: 40, is_me: true }],
          me: { rank: 1, xp: 40, on_leaderboard: true },
        },
      },
    });
    renderApp('/leaderboard');

    const period = await screen.findByText(/ends in 4 days/);
    expect(period).toHaveTextContent('Mar 9, 2026 – Mar 15, 2026 · ends in 4 days');
  });
});
