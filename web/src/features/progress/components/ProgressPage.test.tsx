import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import type { ProgressSummary } from '@/lib/types';
import { allauthConfig, mockApi, signedInSession, signedOutSession } from '@/test/mockApi';
import { calendar, progressSummary } from '@/test/fixtures';
import { renderApp } from '@/test/render';

function routes(body: ProgressSummary) {
  return {
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    'GET /api/v1/me/progress': { body },
    'GET /api/v1/me/calendar': { body: calendar },
  };
}

it('shows the streak with the freezes held and how they work, the goal, and the calendar', async () => {
  mockApi(routes(progressSummary({ streak: { current: 7, best: 9, today: 'done', freezes: 1 }, daily_goal: { xp: 30, xp_today: 20, met: false, chosen: true } })));
  renderApp('/progress');
  const streak = await screen.findByRole('region', { name: 'Streak' });
  expect(streak).toHaveTextContent('7 days · best 9 days');
  expect(streak).toHaveTextContent('Today: done');
  expect(streak).toHaveTextContent('1 of 2 streak freezes held');
  expect(streak).toHaveTextContent(/streak freeze for every 7 days in a row.*platform itself was down never breaks a streak/);
  const goal = screen.getByRole('region', { name: 'Today’s goal' });
  expect(goal).toHaveTextContent('20 XP · goal 30 XP a day');
  expect(within(goal).getByRole('progressbar', { name: 'Today’s goal' })).toHaveAttribute('aria-valuenow', '20');
  expect(goal).toHaveTextContent('10 XP to go today.');

  const table = await screen.findByRole('table', { name: /Activity in the last 12 weeks/ });
  expect(within(table).getAllByRole('row')).toHaveLength(8);
  expect(within(table).getAllByRole('columnheader')).toHaveLength(12);
  expect(within(table).getByRole('columnheader', { name: 'Week of 23 Nov' })).toBeInTheDocument();
  const tuesday = within(table).getByRole('rowheader', { name: 'Tue' }).closest('tr') as HTMLElement;
  expect(within(tuesday).getByRole('cell', { name: 'Tue 3 Nov: 40 XP, goal met' })).toHaveClass('heat-2');
  const wednesday = within(table).getByRole('rowheader', { name: 'Wed' }).closest('tr') as HTMLElement;
  expect(within(wednesday).getByRole('cell', { name: 'Wed 4 Nov: frozen (a streak freeze covered it)' })).toHaveClass('heat-frozen');
  expect(screen.getByRole('cell', { name: 'Thu 26 Nov: 130 XP, goal met, today' })).toHaveClass('heat-today', 'heat-4');
  expect(screen.getByText(/Active on 2 of the last 84 days · goal met on 2 · 1 day frozen/)).toBeInTheDocument();
  expect(screen.getByRole('region', { name: /Activity in the last 12 weeks/ })).toHaveAttribute('tabindex', '0');
  expect(screen.getByRole('list', { name: 'Legend' })).toHaveTextContent('Frozen: a streak freeze covered the day');
  expect(screen.getByText('Days in your time zone, UTC.')).toBeInTheDocument();
});

it('says a freeze will cover a missed day, and points to Settings when no goal is chosen', async () => {
  mockApi(routes(progressSummary({ streak: { current: 7, best: 7, today: 'frozen', freezes: 1 } })));
  renderApp('/progress');
  const streak = await screen.findByRole('region', { name: 'Streak' });
  expect(streak).toHaveTextContent('You missed a day, and a streak freeze covers it');
  expect(screen.getByRole('link', { name: 'Choose one in Settings' })).toHaveAttribute('href', '/settings');
});

it('sends a signed-out visitor to sign in, and back here after', async () => {
  mockApi({ 'GET /_allauth/browser/v1/config': allauthConfig, 'GET /api/v1/session': signedOutSession });
  const { router } = renderApp('/progress');
  expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  expect(router.state.location.pathname + router.state.location.search).toBe('/signin?next=%2Fprogress');
});
