import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allauthConfig, mockApi, signedInSession, signedOutSession } from '@/test/mockApi';
import { progressSummary } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { SIGN_OUT_CHANNEL } from './signOut';

function routes(session: { signedIn: boolean }) {
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'DELETE /_allauth/browser/v1/auth/session': () => {
      session.signedIn = false;
      return { status: 401, body: { status: 401, data: { flows: [] }, meta: { is_authenticated: false } } };
    },
    'GET /api/v1/session': () => (session.signedIn ? signedInSession() : signedOutSession),
    'GET /api/v1/me/progress': { body: progressSummary() },
    'GET /api/v1/me/reviews/summary': { body: { due: 0, next_due_at: null } },
    'GET /api/v1/achievements/': { body: { count: 10, unlocked_count: 0, results: [] } },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    'GET /api/v1/me/notifications/': { body: { count: 0, next: null, previous: null, results: [], unread_count: 0 } },
    'GET /api/v1/quests/': { body: { count: 0, next: null, previous: null, results: [] } },
    'GET /api/v1/levels/': { body: { count: 0, results: [] } },
  });
}

describe('signing out in another tab', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows this tab signed out at once and asks the server again', async () => {
    const session = { signedIn: true };
    const { calls } = routes(session);
    const { router } = renderApp('/notifications');
    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    const checksBefore = calls.filter((call) => call.url === '/api/v1/session').length;

    // The other tab ended the session (the cookie is shared) and says so.
    session.signedIn = false;
    const otherTab = new BroadcastChannel(SIGN_OUT_CHANNEL);
    otherTab.postMessage('signed-out');
    otherTab.close();

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signin');
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    // The session query was invalidated: the server was asked, not only this tab's guess.
    await waitFor(() => expect(calls.filter((call) => call.url === '/api/v1/session').length).toBeGreaterThan(checksBefore));
  });

  it('tells the other tabs when this one signs out', async () => {
    routes({ signedIn: true });
    const heard: unknown[] = [];
    const otherTab = new BroadcastChannel(SIGN_OUT_CHANNEL);
    otherTab.onmessage = (event) => heard.push(event.data);
    const user = userEvent.setup();
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(heard).toEqual(['signed-out']));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    otherTab.close();
  });

  it('hears a storage event where there is no BroadcastChannel', async () => {
    vi.stubGlobal('BroadcastChannel', undefined);
    const session = { signedIn: true };
    routes(session);
    renderApp('/notifications');
    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    session.signedIn = false;
    window.dispatchEvent(new StorageEvent('storage', { key: SIGN_OUT_CHANNEL, newValue: `signed-out:${Date.now()}` }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('ignores other messages on the channel', async () => {
    routes({ signedIn: true });
    renderApp('/notifications');
    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    const otherTab = new BroadcastChannel(SIGN_OUT_CHANNEL);
    otherTab.postMessage('something-else');
    otherTab.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });
});
