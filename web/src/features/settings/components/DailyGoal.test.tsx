import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { allauthConfig, mockApi, signedInSession, type Answer } from '@/test/mockApi';
import { profile, progressSummary, myLeague } from '@/test/fixtures';
import { renderApp } from '@/test/render';


function routes(goal: { xp: number | null }, put: (xp: unknown) => Answer<'PUT /api/v1/me/daily-goal'>) {
  const progress = () => ({
    body: progressSummary({
      xp: 10,
      xp_into_level: 10,
      xp_to_go: 110,
      lessons_completed: 1,
      streak: { current: 1, best: 1, today: 'done', freezes: 0 },
      daily_goal: { xp: goal.xp, xp_today: 10, met: goal.xp !== null && goal.xp <= 10, chosen: goal.xp !== null },
      completed_lessons: ['lesson-1'],
    }),
  });
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /_allauth/browser/v1/auth/sessions': { body: { status: 200, data: [] } },
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/': { body: profile },
    'GET /api/v1/me/deletion': { body: { grace_days: 7 } },
    'GET /api/v1/me/league': { body: myLeague() },
    'GET /_allauth/browser/v1/account/email': { body: { status: 200, data: [{ email: 'ada@example.com', primary: true, verified: true }] } },
    'GET /api/v1/me/progress': progress,
    'GET /api/v1/achievements/': { body: { count: 10, unlocked_count: 0, results: [] } },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    'PUT /api/v1/me/daily-goal': ({ body }) => put((body as { xp: unknown }).xp),
  });
}

describe('Settings: daily goal', () => {
  it('picks a goal from the radio group, saves it and shows it in the top bar', async () => {
    const goal = { xp: null as number | null };
    const { calls } = routes(goal, (xp) => {
      goal.xp = xp as number;
      return { body: { xp: xp as 10 } };
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Daily goal' });
    expect(within(form).getByText(/No goal yet/)).toBeInTheDocument();
    const group = within(form).getByRole('group', { name: 'XP to earn each day' });
    expect(within(group).getAllByRole('radio').map((radio) => (radio as HTMLInputElement).value)).toEqual(['10', '20', '30', '50']);
    await user.click(within(group).getByRole('radio', { name: /50 XP a day/ }));
    await user.click(within(form).getByRole('button', { name: 'Save goal' }));
    expect(await screen.findByText('Daily goal set: 50 XP a day')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ xp: 50 });
    const bar = screen.getByRole('region', { name: 'Your game' });
    expect(await within(bar).findByText('10/50 XP today')).toBeInTheDocument();
    expect(await within(form).findByText(/Now: 50 XP a day/)).toBeInTheDocument();
    expect(within(group).getByRole('radio', { name: /50 XP a day/ })).toBeChecked();
  });

  it('shows the server’s refusal', async () => {
    routes({ xp: 20 }, () => ({
      status: 400,
      body: { type: 'validation_error', title: 'Invalid input.', status: 400, detail: 'Choose 10, 20, 30 or 50.', errors: { xp: ['"7" is not a valid choice.'] } },
    }));
    const user = userEvent.setup();
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Daily goal' });
    await waitFor(() => expect(within(form).getByRole('radio', { name: /20 XP a day/ })).toBeChecked());
    await user.click(within(form).getByRole('radio', { name: /10 XP a day/ }));
    await user.click(within(form).getByRole('button', { name: 'Save goal' }));
    expect(await within(form).findByText(/Choose 10, 20, 30 or 50/)).toBeInTheDocument();
  });
});
