import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SIGN_OUT_CHANNEL } from '@/lib/signOut';
import { allauthConfig, mockApi, signedInSession, signedOutSession, type Answer, type Handler, type MockResponse } from '@/test/mockApi';
import type { EmailAddress } from '@/lib/allauth';
import { profile, progressSummary, myLeague } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const EMAIL = 'GET /_allauth/browser/v1/account/email';
const own = { email: 'ada@example.com', primary: true, verified: true };
const emails = (...addresses: EmailAddress[]): Answer<typeof EMAIL> => ({ body: { status: 200, data: addresses } });

function routes(extra: Record<string, Handler | MockResponse> = {}) {
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /_allauth/browser/v1/auth/sessions': { body: { status: 200, data: [] } },
    [EMAIL]: emails(own),
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/': { body: profile },
    'GET /api/v1/me/progress': { body: progressSummary() },
    'GET /api/v1/achievements/': { body: { count: 10, unlocked_count: 0, results: [] } },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    'GET /api/v1/me/deletion': { body: { grace_days: 7 } },
    'GET /api/v1/me/league': { body: myLeague() },
    ...extra,
  });
}

/** What the home page reads, where a learner signed out lands. */
const HOME = {
  'GET /api/v1/quests/': { body: { count: 0, next: null, previous: null, results: [] } },
  'GET /api/v1/levels/': { body: { levels: [], xp_per_lesson: 10 } },
};

/** Another tab of the app: what it hears on the sign-out channel. */
function anotherTab() {
  const channel = new BroadcastChannel(SIGN_OUT_CHANNEL);
  const heard: unknown[] = [];
  channel.onmessage = (event) => heard.push(event.data);
  return { heard, close: () => channel.close() };
}

async function account() {
  return screen.findByRole('region', { name: 'Account' });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Settings: account', () => {
  it('changes the password, saying the other devices are signed out', async () => {
    const { calls } = routes({ 'POST /_allauth/browser/v1/account/password/change': { body: { status: 200, data: {}, meta: { is_authenticated: true } } } });
    const user = userEvent.setup();
    renderApp('/settings');
    const form = within(await account()).getByRole('form', { name: 'Change password' });
    expect(within(form).getByText(/signs out your other devices/)).toBeInTheDocument();
    expect(within(form).getByRole('checkbox', { name: 'Stay signed in on this device' })).toBeChecked();
    await user.type(within(form).getByLabelText('Current password'), 'old-secret-1');
    await user.type(within(form).getByLabelText('New password'), 'new-secret-22');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(calls.find((call) => call.url.endsWith('/password/change'))?.body).toEqual({ current_password: 'old-secret-1', new_password: 'new-secret-22' });
    expect(within(form).getByLabelText('Current password')).toHaveValue('');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it('signs this device out too when the learner does not stay signed in, here and in other tabs', async () => {
    let signedIn = true;
    const { calls } = routes({
      'GET /api/v1/session': () => (signedIn ? signedInSession() : signedOutSession),
      'POST /_allauth/browser/v1/account/password/change': { body: { status: 200, data: {}, meta: { is_authenticated: true } } },
      // allauth answers a sign-out with 401: "no one is signed in now".
      'DELETE /_allauth/browser/v1/auth/session': () => {
        signedIn = false;
        return { status: 401, body: { status: 401, data: { flows: [] }, meta: { is_authenticated: false } } };
      },
      ...HOME,
    });
    const otherTab = anotherTab();
    const user = userEvent.setup();
    const { router } = renderApp('/settings');
    const form = within(await account()).getByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'old-secret-1');
    await user.type(within(form).getByLabelText('New password'), 'new-secret-22');
    await user.click(within(form).getByRole('checkbox', { name: 'Stay signed in on this device' }));
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.getByTestId('flash')).toHaveTextContent('Password changed. You are signed out on every device, this one too.'));
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(otherTab.heard).toEqual(['signed-out']));
    const order = calls.filter((call) => call.url.startsWith('/_allauth') && call.method !== 'GET').map((call) => `${call.method} ${call.url}`);
    expect(order).toEqual(['POST /_allauth/browser/v1/account/password/change', 'DELETE /_allauth/browser/v1/auth/session']);
    otherTab.close();
  });

  it('shows allauth’s refusal beside the current password', async () => {
    routes({
      'POST /_allauth/browser/v1/account/password/change': {
        status: 400,
        body: { status: 400, errors: [{ message: 'Please type your current password.', code: 'enter_current_password', param: 'current_password' }] },
      },
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const form = within(await account()).getByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'wrong');
    await user.type(within(form).getByLabelText('New password'), 'new-secret-22');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    const field = within(form).getByLabelText('Current password');
    expect(await within(form).findByText('Please type your current password.')).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription('Please type your current password.');
  });

  it('adds an address that counts only once confirmed, showing it pending', async () => {
    let addresses = [own];
    const { calls } = routes({
      [EMAIL]: () => emails(...addresses),
      'POST /_allauth/browser/v1/account/email': ({ body }) => {
        addresses = [own, { email: (body as { email: string }).email, primary: false, verified: false }];
        return emails(...addresses);
      },
      // allauth answers a resend with no list: the app reads it again.
      'PUT /_allauth/browser/v1/account/email': { body: { status: 200 } },
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const form = within(await account()).getByRole('form', { name: 'E-mail address' });
    expect(await within(form).findByText('ada@example.com')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('New e-mail address'), 'ada@new.example');
    await user.click(within(form).getByRole('button', { name: 'Send confirmation link' }));
    expect(await within(form).findByText(/Waiting for confirmation/)).toHaveTextContent('ada@new.example');
    expect(within(form).getByText(/Waiting for confirmation/)).toHaveTextContent('until then you sign in with ada@example.com');
    await user.click(within(form).getByRole('button', { name: 'Send the link again' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([{ email: 'ada@new.example' }]));
    // allauth answers a resend with no list: the addresses on screen stay (read again), not emptied.
    await waitFor(() => expect(calls.filter((call) => call.url.endsWith('/account/email') && call.method === 'GET')).toHaveLength(2));
    expect(within(form).getByText(/Waiting for confirmation/)).toHaveTextContent('ada@new.example');
  });

  it('makes a confirmed address the account’s own and removes the old one', async () => {
    let addresses = [own, { email: 'ada@new.example', primary: false, verified: true }];
    const { calls } = routes({
      [EMAIL]: () => emails(...addresses),
      'PATCH /_allauth/browser/v1/account/email': () => {
        addresses = addresses.map((address) => ({ ...address, primary: address.email === 'ada@new.example' }));
        return emails(...addresses);
      },
      'DELETE /_allauth/browser/v1/account/email': ({ body }) => {
        addresses = addresses.filter((address) => address.email !== (body as { email: string }).email);
        return emails(...addresses);
      },
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const form = within(await account()).getByRole('form', { name: 'E-mail address' });
    await user.click(await within(form).findByRole('button', { name: 'Use ada@new.example' }));
    await waitFor(() => expect(within(form).getByText(/Your address/)).toHaveTextContent('ada@new.example'));
    expect(calls.filter((call) => call.url.endsWith('/account/email') && call.method !== 'GET').map((call) => [call.method, call.body])).toEqual([
      ['PATCH', { email: 'ada@new.example', primary: true }],
      ['DELETE', { email: 'ada@example.com' }],
    ]);
  });

  it('downloads the learner’s data as a JSON file', async () => {
    routes({ 'GET /api/v1/me/data': { body: { profile: { email: 'ada@example.com' }, xp_ledger: [] } } });
    const saved: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (saved.push(blob), 'blob:data'), revokeObjectURL: () => undefined }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toMatch(/^learning-platform-data-\d{4}-\d{2}-\d{2}\.json$/);
    });
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(within(await account()).getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Your data was downloaded')).toBeInTheDocument();
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(JSON.parse(await saved[0].text())).toEqual({ profile: { email: 'ada@example.com' }, xp_ledger: [] });
  });

  it('deletes the account after the password, explaining the grace, then signs out here and in other tabs', async () => {
    let signedIn = true;
    const { calls } = routes({
      'GET /api/v1/session': () => (signedIn ? signedInSession() : signedOutSession),
      'POST /api/v1/me/deletion': ({ body }) => {
        if ((body as { password: string }).password !== 'right-one') {
          return { status: 400, body: { type: 'validation_error', title: 'Invalid input.', status: 400, detail: 'password: The password is not right.', errors: { password: ['The password is not right.'] } } };
        }
        signedIn = false;
        return { status: 202, body: { requested_at: '2026-12-04T10:00:00Z', delete_after: '2026-12-11T10:00:00Z' } };
      },
      'GET /api/v1/me/deletion': { body: { grace_days: 10 } },
      'GET /api/v1/me/league': { body: myLeague() },
      ...HOME,
    });
    const otherTab = anotherTab();
    const user = userEvent.setup();
    const { router } = renderApp('/settings');
    expect(await within(await account()).findByText('Deleted after 10 days; signing in before then cancels it.')).toBeInTheDocument();
    const opener = within(await account()).getByRole('button', { name: 'Delete my account…' });

    // Kept: the dialog closes and focus is back on the button that opened it.
    await user.click(opener);
    let dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(dialog).toHaveTextContent('deleted after 10 days: signing in before then cancels the deletion');
    expect(dialog).toHaveTextContent('Your comments stay, signed “A deleted learner”');
    await user.click(within(dialog).getByRole('button', { name: 'Keep my account' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();

    await user.click(opener);
    dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(within(dialog).getByLabelText('Your password')).toHaveFocus();
    await user.type(within(dialog).getByLabelText('Your password'), 'wrong-one');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText('The password is not right.')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText('Your password'));
    await user.type(within(dialog).getByLabelText('Your password'), 'right-one');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(screen.getByTestId('flash')).toHaveTextContent(/You are signed out\. Your account will be deleted on .*11.*; signing in before then cancels it\./));
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(otherTab.heard).toEqual(['signed-out']));
    expect(calls.filter((call) => call.method === 'POST' && call.url === '/api/v1/me/deletion').map((call) => call.body)).toEqual([{ password: 'wrong-one' }, { password: 'right-one' }]);
    otherTab.close();
  });
});
