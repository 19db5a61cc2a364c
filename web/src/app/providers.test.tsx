import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allauthConfig, mockApi, signedInSession, signedOutSession } from '@/test/mockApi';
import { renderApp } from '@/test/render';

describe('a session that ends', () => {
  it('switches the app to signed out when the API answers 401', async () => {
    let sessionChecks = 0;
    mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      // Signed in at first; the session then ends elsewhere.
      'GET /api/v1/session': () => (sessionChecks++ === 0 ? signedInSession() : signedOutSession),
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
      'GET /api/v1/me/': {
        status: 401,
        body: { type: 'not_authenticated', title: 'Not authenticated.', status: 401, detail: 'Credentials were not provided.', errors: {} },
      },
    });
    const { router } = renderApp('/settings');
    // The 401 makes the app check the session again; signed out, the page asks to sign in.
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/signin?next=%2Fsettings');
    expect(sessionChecks).toBe(2);
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
  });
});
