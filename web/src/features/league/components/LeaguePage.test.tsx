import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allauthConfig, mockApi, signedOutSession, type Answer, type Handler } from '@/test/mockApi';
import { myLeague, profile, signedInPageRoutes } from '@/test/fixtures';
import type { MyLeague } from '@/lib/types';
import { renderApp } from '@/test/render';

/** A full Silver cohort of 30, the learner 12th: the top 7 move up, ranks 26 to 30 move down. */
const placed = myLeague({
  placed: true,
  members: Array.from({ length: 30 }, (_, index) => ({
    rank: index + 1,
    display_name: index === 11 ? 'Ada' : `Learner ${index + 1}`,
    xp: 300 - index * 10,
    you: index === 11,
  })),
  promotion_line: 7,
  demotion_line: 26,
});

function routes(league: MyLeague | (() => Answer<'GET /api/v1/me/league'>), more: Record<string, Handler | object> = {}) {
  return mockApi({
    ...signedInPageRoutes(),
    'GET /api/v1/me/': { body: profile },
    'GET /api/v1/me/league': typeof league === 'function' ? league : { body: league },
    ...more,
  });
}

/** The table's rows as text, the header's first. */
const rows = () => within(screen.getByRole('table')).getAllByRole('row').map((row) => row.textContent);

describe('The league page', () => {
  afterEach(() => vi.useRealTimers());

  it('ranks the cohort with the promotion line after the last to move up and the demotion line before the first to move down', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-11T10:00:00Z'), toFake: ['Date'] });
    routes(placed);
    renderApp('/league');

    expect(await screen.findByRole('heading', { level: 1, name: 'Silver league' })).toBeInTheDocument();
    expect(screen.getByText(/ends in 4 days/)).toHaveTextContent('Mar 9, 2026 – Mar 15, 2026 · ends in 4 days');
    const table = screen.getByRole('table', { name: 'Silver league this week, ranked by XP' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Rank', 'Learner', 'XP']);
    const all = rows();
    expect(all).toHaveLength(1 + 30 + 2);
    expect(all[7]).toBe('7Learner 7240');
    expect(all[8]).toBe('▲ Promotion zone: the top 7 move up');
    expect(all[9]).toBe('8Learner 8230');
    expect(all[26]).toBe('25Learner 2560');
    expect(all[27]).toBe('▼ Demotion zone: the bottom 5 move down');
    expect(all[28]).toBe('26Learner 2650');
    expect(all[32]).toBe('30Learner 3010');
  });

  it('highlights the learner’s own row and says where they stand', async () => {
    routes(placed);
    renderApp('/league');
    const table = await screen.findByRole('table');
    const mine = within(table).getAllByRole('row').filter((row) => row.getAttribute('aria-current') === 'true');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toHaveTextContent('12Ada (you)190');
    expect(mine[0]).toHaveClass('is-me');
    expect(screen.getByText(/You are/)).toHaveTextContent('You are #12 of 30 with 190 XP.');
    expect(await screen.findByText(/Others in your league see you as/)).toHaveTextContent('Others in your league see you as Ada, never by your e-mail.');
  });

  it('says the learner is in the promotion zone when they are', async () => {
    const top = { ...placed, members: placed.members.map((member) => ({ ...member, you: member.rank === 3 })) };
    routes(top);
    renderApp('/league');
    expect(await screen.findByText(/You are/)).toHaveTextContent('You are #3 of 30 with 280 XP, in the promotion zone.');
  });

  it('draws no demotion line in the lowest tier, and no line after the last member', async () => {
    const bronze = myLeague({
      placed: true,
      tier: { rank: 1, name: 'Bronze' },
      members: [
        { rank: 1, display_name: 'Ada', xp: 40, you: true },
        { rank: 2, display_name: 'Grace', xp: 20, you: false },
      ],
      promotion_line: 2,
      demotion_line: null,
    });
    routes(bronze);
    renderApp('/league');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bronze league' })).toBeInTheDocument();
    expect(rows()).toEqual(['RankLearnerXP', '1Ada (you)40', '2Grace20']);
    expect(screen.getByText(/move up a tier/)).toHaveTextContent('The top 2 move up a tier at the week’s end.');
  });

  it('invites a learner not placed yet to earn XP', async () => {
    routes(myLeague());
    renderApp('/league');
    expect(await screen.findByText(/Earn XP this week/)).toHaveTextContent('Earn XP this week to join a Silver league of 30.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('tells a learner waiting for last week’s close that their XP counts', async () => {
    routes(myLeague({ waiting: true }));
    renderApp('/league');
    expect(await screen.findByText(/Your XP this week counts/)).toHaveTextContent('You join your league as soon as last week’s results are in.');
  });

  it('lets a learner who left join again', async () => {
    let participating = false;
    const { calls } = routes(() => ({ body: myLeague({ participating }) }), {
      'PUT /api/v1/me/league/participation': ({ body }: { body: unknown }) => {
        participating = (body as { participating: boolean }).participating;
        return { body: { participating } };
      },
    });
    const user = userEvent.setup();
    renderApp('/league');
    const section = await screen.findByRole('region', { name: 'You left the leagues' });
    await user.click(within(section).getByRole('button', { name: 'Join the leagues again' }));
    expect(await screen.findByText(/Earn XP this week/)).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ participating: true });
  });

  it('shows why joining again failed', async () => {
    routes(myLeague({ participating: false }), {
      'PUT /api/v1/me/league/participation': { status: 503, body: { type: 'unavailable', title: 'Unavailable', status: 503, detail: 'Try again in a minute.' } },
    });
    const user = userEvent.setup();
    renderApp('/league');
    await user.click(await screen.findByRole('button', { name: 'Join the leagues again' }));
    expect(await screen.findByText(/Try again in a minute/)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'You left the leagues' })).toBeInTheDocument();
  });

  it('shows an error with a retry when the league cannot be read', async () => {
    let answers = 0;
    routes(() => (++answers === 1 ? { status: 500, body: { type: 'server_error', title: 'Server error', status: 500, detail: '', errors: {} } } : { body: placed }));
    const user = userEvent.setup();
    renderApp('/league');
    await user.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Silver league' })).toBeInTheDocument();
  });

  it('asks a visitor to sign in, and asks the server nothing', async () => {
    const { calls } = mockApi({ 'GET /_allauth/browser/v1/config': allauthConfig, 'GET /api/v1/session': signedOutSession });
    renderApp('/league');
    expect(await screen.findByRole('heading', { level: 1, name: 'Weekly leagues' })).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin?next=%2Fleague');
    expect(screen.getByText(/to join leagues/)).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.url === '/api/v1/me/league')).toBe(false));
  });
});
