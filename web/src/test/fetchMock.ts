import { vi } from 'vitest';

export interface MockResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export type Handler = (request: { url: string; method: string; body: unknown; headers: Record<string, string> }) => MockResponse | Promise<MockResponse>;

export interface RecordedCall {
  url: string;
  method: string;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Replaces fetch with a router: `routes` maps "METHOD /path" (path without the query string,
 * or with it when the key has one) to a handler. Unknown requests fail the test loudly. A handler
 * may answer with a promise, to hold a request in flight until the test resolves it.
 */
export function mockFetch(routes: Record<string, Handler | MockResponse>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = (init.headers ?? {}) as Record<string, string>;
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { url: url.pathname + url.search, method, body, headers };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}${url.search}`] ?? routes[`${method} ${url.pathname}`];
    if (!route) throw new Error(`Unexpected request: ${method} ${url.pathname}${url.search}`);
    const answer = typeof route === 'function' ? await route(call) : route;
    const status = answer.status ?? 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const signedOutSession = { body: { is_authenticated: false, user: null } };
export const allauthConfig = { body: { status: 200, data: { account: { login_methods: ['email'] } } } };
/** allauth's answer to a successful sign-in, sign-up or e-mail confirmation. */
export function signedInAnswer(email = 'ada@example.com') {
  return {
    status: 200,
    body: { status: 200, data: { user: { id: 1, display: 'ada', email, has_usable_password: true }, methods: [] }, meta: { is_authenticated: true } },
  };
}
/** GET /api/v1/session for a signed-in learner. */
export function signedInSession(email = 'ada@example.com') {
  return {
    body: {
      is_authenticated: true,
      user: {
        id: 1,
        email,
        display_name: 'Ada',
        time_zone: 'UTC',
        reply_notifications: true,
        email_notifications: true,
        show_on_leaderboard: true,
        date_joined: '2026-11-01T00:00:00Z',
      },
    },
  };
}
