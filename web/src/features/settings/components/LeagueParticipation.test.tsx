import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { allauthConfig, mockApi, signedInSession, type Answer } from '@/test/mockApi';
import { myLeague, profile, progressSummary } from '@/test/fixtures';
import { renderApp } from '@/test/render';

function routes(saved: { participating: boolean }, put: (participating: boolean) => Answer<'PUT /api/v1/me/league/participation'>) {
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /_allauth/browser/v1/auth/sessions': { body: { status: 200, data: [] } },
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/': { body: profile },
    'GET /api/v1/me/deletion': { body: { grace_days: 7 } },
    'GET /_allauth/browser/v1/account/email': { body: { status: 200, data: [{ email: 'ada@example.com', primary: true, verified: true }] } },
    'GET /api/v1/me/progress': { body: progressSummary() },
    'GET /api/v1/achievements/': { body: { count: 10, unlocked_count: 0, results: [] } },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    'GET /api/v1/me/league': () => ({ body: myLeague({ participating: saved.participating }) }),
    'PUT /api/v1/me/league/participation': ({ body }) => put((body as { participating: boolean }).participating),
  });
}

const section = () => screen.findByRole('region', { name: 'Weekly leagues' });
const toggle = (region: HTMLElement) => within(region).findByRole('checkbox', { name: 'Take part in weekly leagues' });

describe('Settings: weekly leagues', () => {
  it('shows that the learner takes part, and leaves the leagues when unticked', async () => {
    const saved = { participating: true };
    const { calls } = routes(saved, (participating) => {
      saved.participating = participating;
      return { body: { participating } };
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const region = await section();
    const box = await toggle(region);
    expect(box).toBeChecked();
    expect(box).toHaveAccessibleDescription(/Now: you take part/);

    await user.click(box);
    expect(await screen.findByText('You left the weekly leagues')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ participating: false });
    await waitFor(() => expect(box).not.toBeChecked());
    expect(box).toHaveAccessibleDescription(/Now: you are out of the leagues/);
  });

  it('joins again when ticked', async () => {
    const saved = { participating: false };
    const { calls } = routes(saved, (participating) => {
      saved.participating = participating;
      return { body: { participating } };
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const box = await toggle(await section());
    expect(box).not.toBeChecked();
    await user.click(box);
    expect(await screen.findByText('You joined the weekly leagues')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ participating: true });
    await waitFor(() => expect(box).toBeChecked());
  });

  it('shows the server’s refusal and keeps the saved state', async () => {
    routes({ participating: true }, () => ({
      status: 400,
      body: { type: 'validation_error', title: 'Invalid input.', status: 400, detail: 'Must be a valid boolean.', errors: { participating: ['Must be a valid boolean.'] } },
    }));
    const user = userEvent.setup();
    renderApp('/settings');
    const region = await section();
    const box = await toggle(region);
    await user.click(box);
    expect(await within(region).findByRole('alert')).toHaveTextContent('Must be a valid boolean.');
    expect(box).toBeChecked();
  });
});
