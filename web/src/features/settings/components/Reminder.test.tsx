import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { allauthConfig, mockApi, signedInSession } from '@/test/mockApi';
import { profile, progressSummary, myLeague } from '@/test/fixtures';
import { renderApp } from '@/test/render';

function routes(saved: { reminder_time: string | null }) {
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /_allauth/browser/v1/auth/sessions': { body: { status: 200, data: [] } },
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/': () => ({ body: { ...profile, ...saved } }),
    'GET /api/v1/me/deletion': { body: { grace_days: 7 } },
    'GET /api/v1/me/league': { body: myLeague() },
    'GET /_allauth/browser/v1/account/email': { body: { status: 200, data: [{ email: 'ada@example.com', primary: true, verified: true }] } },
    'GET /api/v1/me/progress': { body: progressSummary() },
    'GET /api/v1/achievements/': { body: { count: 10, unlocked_count: 0, results: [] } },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    'PATCH /api/v1/me/': ({ body }) => {
      saved.reminder_time = (body as { reminder_time: string | null }).reminder_time;
      return { body: { ...profile, ...saved } };
    },
  });
}

describe('Settings: daily reminder', () => {
  it('turns a reminder on at a time of the learner’s choosing and saves it', async () => {
    const saved = { reminder_time: null as string | null };
    const { calls } = routes(saved);
    const user = userEvent.setup();
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Profile' });
    expect(within(form).queryByLabelText('Reminder time')).toBeNull();

    await user.click(within(form).getByRole('checkbox', { name: 'Remind me each day' }));
    const time = within(form).getByLabelText('Reminder time');
    expect(time).toHaveValue('19:00');
    fireEvent.change(time, { target: { value: '21:30' } }); // a time control's own picker
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));

    await waitFor(() => expect(saved.reminder_time).toBe('21:30'));
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch?.body).toMatchObject({ reminder_time: '21:30' });
  });

  it('turns it off with null', async () => {
    const saved = { reminder_time: '21:30' as string | null };
    routes(saved);
    const user = userEvent.setup();
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Profile' });
    expect(await within(form).findByLabelText('Reminder time')).toHaveValue('21:30');

    await user.click(within(form).getByRole('checkbox', { name: 'Remind me each day' }));
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));

    await waitFor(() => expect(saved.reminder_time).toBeNull());
  });
});
