import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, type Handler } from '@/test/mockApi';
import { profile as adaProfile, signedInPageRoutes } from '@/test/fixtures';
import type { Profile } from '@/lib/types';
import { renderApp } from '@/test/render';

const handleOnly = { ...adaProfile, display_name: '', public_name: 'Learner 380293' };
const board = { period: 'week', since: null, ends_at: null, first_day: null, last_day: null, entries: [], me: null };

function routes(profile: Profile, more: Record<string, Handler | object> = {}) {
  return mockApi({
    ...signedInPageRoutes(),
    'GET /api/v1/leaderboard': { body: board },
    'GET /api/v1/me/': { body: profile },
    'POST /api/v1/me/name-invitation': { body: { ...profile, name_invited_at: '2026-12-05T09:00:00Z' } },
    ...more,
  });
}

const invitation = () => screen.findByRole('region', { name: 'Choose your name' });
const marks = (calls: { url: string; method: string }[]) => calls.filter((call) => call.method === 'POST' && call.url === '/api/v1/me/name-invitation');

describe('The invitation to choose a name', () => {
  it('is shown to a learner still named by their handle, and the showing is recorded', async () => {
    const { calls } = routes(handleOnly);
    renderApp('/leaderboard');
    const region = await invitation();
    expect(region).toHaveTextContent('Others see you as Learner 380293.');
    await waitFor(() => expect(marks(calls).length).toBeGreaterThan(0));
    // Recording it does not take it off the page the learner is reading.
    expect(screen.getByRole('region', { name: 'Choose your name' })).toBeInTheDocument();
  });

  it('is not shown once it was shown before, on any device', async () => {
    const { calls } = routes({ ...handleOnly, name_invited_at: '2026-12-01T09:00:00Z' });
    renderApp('/leaderboard');
    await screen.findByText('No one has earned XP in this period yet.');
    expect(screen.queryByRole('region', { name: 'Choose your name' })).not.toBeInTheDocument();
    expect(marks(calls)).toEqual([]);
  });

  it('is not shown to a learner who has a name', async () => {
    const { calls } = routes(adaProfile);
    renderApp('/leaderboard');
    await screen.findByText('No one has earned XP in this period yet.');
    expect(screen.queryByRole('region', { name: 'Choose your name' })).not.toBeInTheDocument();
    expect(marks(calls)).toEqual([]);
  });

  it('saves the chosen name and says so', async () => {
    const { calls } = routes(handleOnly, {
      'PATCH /api/v1/me/': { body: { ...handleOnly, display_name: 'Ada Lovelace', public_name: 'Ada Lovelace' } },
    });
    const user = userEvent.setup();
    renderApp('/leaderboard');
    const region = await invitation();
    await user.type(within(region).getByLabelText('Your name'), 'Ada Lovelace');
    await user.click(within(region).getByRole('button', { name: 'Use this name' }));
    expect(await screen.findByText('Others now see you as Ada Lovelace.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ display_name: 'Ada Lovelace' });
    expect(screen.queryByRole('region', { name: 'Choose your name' })).not.toBeInTheDocument();
  });

  it('shows the server’s refusal of a name on the field', async () => {
    routes(handleOnly, {
      'PATCH /api/v1/me/': {
        status: 400,
        body: { type: 'validation_error', title: 'Invalid input.', status: 400, detail: '', errors: { display_name: ['That name is taken.'] } },
      },
    });
    const user = userEvent.setup();
    renderApp('/leaderboard');
    const region = await invitation();
    await user.type(within(region).getByLabelText('Your name'), 'Grace');
    await user.click(within(region).getByRole('button', { name: 'Use this name' }));
    expect(await within(region).findByText('That name is taken.')).toBeInTheDocument();
    expect(within(region).getByLabelText('Your name')).toHaveAccessibleDescription(expect.stringContaining('That name is taken.'));
  });

  it('goes away when dismissed, and a failed mark is recorded on dismissing', async () => {
    const unavailable = { status: 503, body: { type: 'unavailable', title: 'Unavailable', status: 503, detail: '' } };
    const recorded = { body: { ...handleOnly, name_invited_at: '2026-12-05T09:00:00Z' } };
    let answers = 0;
    const { calls } = routes(handleOnly, { 'POST /api/v1/me/name-invitation': () => (++answers === 1 ? unavailable : recorded) });
    const user = userEvent.setup();
    renderApp('/leaderboard');
    const region = await invitation();
    await waitFor(() => expect(marks(calls).length).toBeGreaterThan(0));
    await user.click(within(region).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('region', { name: 'Choose your name' })).not.toBeInTheDocument();
    await waitFor(() => expect(marks(calls).length).toBeGreaterThan(1));
  });
});
