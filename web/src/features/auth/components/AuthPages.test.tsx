import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { readAnswers, readEvents, recordAnswer, recordCompletion } from '@/lib/progressStore';
import { sessionQuery } from '@/lib/session';
import { fakeCaches } from '@/test/caches';
import { allauthConfig, type Answer, mockApi, signedInAnswer, signedInSession, signedOutSession } from '@/test/mockApi';
import { profile, progressSummary, syncResult, myLeague } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const syncAnswer = { body: syncResult() };

describe('sign in', () => {
  it('shows allauth field errors next to the field', async () => {
    mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': signedOutSession,
      'POST /_allauth/browser/v1/auth/login': {
        status: 400,
        body: { status: 400, errors: [{ message: 'The email address and/or password you specified are not correct.', code: 'email_password_mismatch', param: 'password' }] },
      },
    });
    const user = userEvent.setup();
    renderApp('/signin');
    await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const message = await screen.findByText('The email address and/or password you specified are not correct.');
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-describedby', message.id);
  });

  it('hands the device progress over to the account, clears it and goes where it was asked', async () => {
    recordCompletion('embedding-dimension');
    recordCompletion('token-embeddings');
    const sent = readEvents();
    let signedIn = false;
    const { calls } = mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': () => (signedIn ? signedInSession() : signedOutSession),
      'POST /_allauth/browser/v1/auth/login': () => {
        signedIn = true;
        return signedInAnswer();
      },
      'POST /api/v1/me/progress/sync': syncAnswer,
      'GET /api/v1/achievements/': { body: { count: 10, unlocked_count: 1, results: [] } },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    });
    document.cookie = 'csrftoken=tok; path=/';
    const user = userEvent.setup();
    const { router } = renderApp('/signin?next=/achievements');
    expect(await screen.findByText(/The 2 lessons you completed on this device will be added/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Achievements' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/achievements');
    expect(screen.getByTestId('flash')).toHaveTextContent('Signed in — 2 lessons synced from this device');
    const sync = calls.find((call) => call.url === '/api/v1/me/progress/sync');
    expect(sync?.body).toEqual({ device_id: expect.stringMatching(/^web-/), events: sent });
    expect(sync?.headers.get('X-CSRFToken')).toBe('tok');
    expect(readEvents()).toEqual([]);
    expect(await screen.findByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('hands over the answers to checks kept on the device before the completions, and clears them', async () => {
    recordAnswer({ check: 61, lesson: 'embedding-dimension', answer: { value: '64' }, correct: true });
    recordCompletion('embedding-dimension');
    recordCompletion('token-embeddings');
    const answers = readAnswers();
    let signedIn = false;
    const { calls } = mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': () => (signedIn ? signedInSession() : signedOutSession),
      'POST /_allauth/browser/v1/auth/login': () => {
        signedIn = true;
        return signedInAnswer();
      },
      'POST /api/v1/me/checks/sync': {
        body: { accepted: 1, duplicates: 0, rejected: [], xp_awarded: 50, lessons_completed: ['embedding-dimension'], new_achievements: [] },
      },
      'POST /api/v1/me/progress/sync': syncAnswer,
      'GET /api/v1/achievements/': { body: { count: 10, unlocked_count: 1, results: [] } },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    });
    const user = userEvent.setup();
    renderApp('/signin?next=/achievements');
    await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Achievements' })).toBeInTheDocument();
    const syncs = calls.filter((call) => call.url.endsWith('/sync'));
    expect(syncs.map((call) => call.url)).toEqual(['/api/v1/me/checks/sync', '/api/v1/me/progress/sync']);
    expect(syncs[0].body).toEqual({
      device_id: expect.stringMatching(/^web-/),
      answers: [{ id: answers[0].id, check: 61, answer: { value: '64' }, answered_at: answers[0].answered_at, revealed: false }],
    });
    // The lesson its answers completed is not sent as a completion too.
    expect(syncs[1].body).toMatchObject({ events: [expect.objectContaining({ lesson: 'token-embeddings' })] });
    expect((syncs[1].body as { events: unknown[] }).events).toHaveLength(1);
    expect(screen.getByTestId('flash')).toHaveTextContent('Signed in — 2 lessons synced from this device');
    expect(readAnswers()).toEqual([]);
    expect(readEvents()).toEqual([]);
  });

  it('keeps the device progress when the sync fails', async () => {
    recordCompletion('embedding-dimension');
    mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': signedOutSession,
      'POST /_allauth/browser/v1/auth/login': signedInAnswer(),
      'POST /api/v1/me/progress/sync': {
        status: 429,
        headers: { 'Retry-After': '30' },
        body: { type: 'throttled', title: 'Throttled.', status: 429, detail: 'Slow down.', errors: {} },
      },
      'GET /': { body: null },
      'GET /api/v1/quests/': { body: { count: 0, results: [] } },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    });
    const user = userEvent.setup();
    renderApp('/signin');
    await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Quests' })).toBeInTheDocument();
    expect(readEvents()).toHaveLength(1);
  });
});

/** A sign-up that signs in at once, then lands on an empty home page. */
function signUpRoutes(extra: Parameters<typeof mockApi>[0] = {}) {
  let signedIn = false;
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /api/v1/session': () => (signedIn ? signedInSession() : signedOutSession),
    'POST /_allauth/browser/v1/auth/signup': () => {
      signedIn = true;
      return signedInAnswer('new@example.com');
    },
    'PATCH /api/v1/me/': { body: profile },
    'GET /api/v1/quests/': { body: { count: 0, results: [] } },
    'GET /api/v1/achievements/': { body: { count: 0, unlocked_count: 0, results: [] } },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    ...extra,
  });
}

async function signUpAs(user: ReturnType<typeof userEvent.setup>, email: string) {
  await user.type(await screen.findByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('Password'), 'a long password');
  await user.click(screen.getByRole('button', { name: 'Sign up' }));
}

describe('sign up', () => {
  it('welcomes the new learner with the number of lessons synced, once', async () => {
    recordCompletion('embedding-dimension');
    recordCompletion('token-embeddings');
    recordCompletion('not-a-lesson');
    signUpRoutes({
      // The server refuses one of the three (unknown lesson): two were synced.
      'POST /api/v1/me/progress/sync': ({ body }) => ({
        body: { ...syncAnswer.body, rejected: [{ id: (body as { events: { id: string }[] }).events[2].id, reason: 'unknown_lesson' }] },
      }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/signup');
    await signUpAs(user, 'new@example.com');
    const banner = await screen.findByText('Welcome — 2 lessons synced from this device');
    expect(banner).toBe(screen.getByTestId('flash'));
    expect(banner).toHaveAttribute('role', 'status');
    expect(router.state.location.pathname).toBe('/');
    // Shown once: the history entry no longer carries it (replaced by an effect after the banner
    // renders, so waited for), and the next page does not show it.
    await waitFor(() => expect(router.state.location.state).toBeNull());
    // Signed in, Achievements is in the More popover (shown in the row by styles.css, which jsdom has not).
    await user.click(screen.getByRole('link', { name: 'Achievements', hidden: true }));
    expect(await screen.findByRole('heading', { name: 'Achievements' })).toBeInTheDocument();
    expect(screen.getByTestId('flash')).toBeEmptyDOMElement();
  });

  it('says just "Welcome" when there was nothing to sync', async () => {
    signUpRoutes();
    const user = userEvent.setup();
    renderApp('/signup');
    await signUpAs(user, 'new@example.com');
    expect(await screen.findByText('Welcome')).toBe(screen.getByTestId('flash'));
  });

  it('says to check the inbox when allauth waits for the e-mail to be verified', async () => {
    mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': signedOutSession,
      'POST /_allauth/browser/v1/auth/signup': {
        status: 401,
        body: { status: 401, data: { flows: [{ id: 'verify_email', is_pending: true }] }, meta: { is_authenticated: false } },
      },
    });
    const user = userEvent.setup();
    renderApp('/signup');
    await signUpAs(user, 'new@example.com');
    expect(await screen.findByText('Check your inbox.')).toBeInTheDocument();
  });

  it('shows a taken e-mail as an error on the e-mail field', async () => {
    mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': signedOutSession,
      'POST /_allauth/browser/v1/auth/signup': {
        status: 400,
        body: { status: 400, errors: [{ message: 'A user is already registered with this email address.', code: 'email_taken', param: 'email' }] },
      },
    });
    const user = userEvent.setup();
    renderApp('/signup');
    await signUpAs(user, 'taken@example.com');
    const message = await screen.findByText('A user is already registered with this email address.');
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('aria-describedby', message.id);
  });
});

describe('verify e-mail', () => {
  it('shows the address from the key and confirms it', async () => {
    let verified = false;
    const { calls } = mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': () => (verified ? signedInSession() : signedOutSession),
      'GET /_allauth/browser/v1/auth/email/verify': { body: { status: 200, data: { email: 'new@example.com', user: { id: 2, display: 'new', email: 'new@example.com', has_usable_password: true } }, meta: { is_authenticating: false } } },
      'POST /_allauth/browser/v1/auth/email/verify': () => {
        verified = true;
        return signedInAnswer('new@example.com');
      },
      'GET /api/v1/quests/': { body: { count: 0, results: [] } },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    });
    const user = userEvent.setup();
    renderApp('/account/verify-email/key-123');
    expect(await screen.findByText('new@example.com')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'GET' && call.url.endsWith('/email/verify'))?.headers.get('X-Email-Verification-Key')).toBe('key-123');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { name: 'Quests' })).toBeInTheDocument();
    expect(screen.getByTestId('flash')).toHaveTextContent(/^E-mail confirmed$/);
    expect(calls.find((call) => call.method === 'POST' && call.url.endsWith('/email/verify'))?.body).toEqual({ key: 'key-123' });
  });

  it('sends a signed-in learner who confirms a new address to Settings, where it becomes theirs', async () => {
    mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': signedInSession('ada@example.com'),
      'GET /_allauth/browser/v1/auth/email/verify': { body: { status: 200, data: { email: 'ada@new.example', user: { id: 1, display: 'ada', email: 'ada@example.com', has_usable_password: true } }, meta: { is_authenticating: false } } },
      'POST /_allauth/browser/v1/auth/email/verify': signedInAnswer('ada@example.com'),
      'GET /api/v1/me/': { body: profile },
      'GET /api/v1/me/deletion': { body: { grace_days: 7 } },
      'GET /api/v1/me/league': { body: myLeague() },
      'GET /api/v1/me/progress': { body: progressSummary() },
      'GET /api/v1/achievements/': { body: { count: 10, unlocked_count: 0, results: [] } },
      'GET /_allauth/browser/v1/auth/sessions': { body: { status: 200, data: [] } },
      'GET /_allauth/browser/v1/account/email': {
        body: { status: 200, data: [{ email: 'ada@example.com', primary: true, verified: true }, { email: 'ada@new.example', primary: false, verified: true }] },
      },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/account/verify-email/key-9');
    expect(await screen.findByText('ada@new.example')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('button', { name: 'Use ada@new.example' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings');
    expect(screen.getByTestId('flash')).toHaveTextContent('E-mail confirmed — make it your address under Account');
  });
});

describe('sign out', () => {
  it('stays signed out when a session check answered before it lands after it', async () => {
    let signedIn = true;
    let sessionChecks = 0;
    let answerStaleCheck: (answer: Answer<'GET /api/v1/session'>) => void = () => undefined;
    mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': () => {
        sessionChecks += 1;
        // The second check is the one the server read while still signed in.
        if (sessionChecks === 2) return new Promise<Answer<'GET /api/v1/session'>>((resolve) => (answerStaleCheck = resolve));
        return signedIn ? signedInSession() : signedOutSession;
      },
      'DELETE /_allauth/browser/v1/auth/session': () => {
        signedIn = false;
        return { status: 401, body: { status: 401, data: { flows: [] }, meta: { is_authenticated: false } } };
      },
      'GET /api/v1/quests/': { body: { count: 0, results: [] } },
      'GET /api/v1/achievements/': { body: { count: 0, unlocked_count: 0, results: [] } },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    });
    // Emptying the device's caches is where a real browser spends the time the stale answer needs.
    let finishClearing: () => void = () => undefined;
    const clearing = new Promise<void>((resolve) => (finishClearing = resolve));
    let cachesCleared = 0;
    fakeCaches(async () => {
      cachesCleared += 1;
      await clearing;
    });
    const user = userEvent.setup();
    const { client } = renderApp('/');
    const signOut = await screen.findByRole('button', { name: 'Sign out' });
    void client.invalidateQueries({ queryKey: sessionQuery.queryKey });
    await waitFor(() => expect(sessionChecks).toBe(2));

    await user.click(signOut);
    await waitFor(() => expect(cachesCleared).toBe(1));
    answerStaleCheck(signedInSession());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();

    finishClearing();
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    expect(client.getQueryData(sessionQuery.queryKey)?.isAuthenticated).toBe(false);
  });
});
