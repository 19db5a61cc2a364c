import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '@/test/fetchMock';
import { api, ApiError, parseRetryAfter } from './api';

describe('api client', () => {
  it('parses a JSON answer', async () => {
    mockFetch({ 'GET /api/v1/quests/': { body: { count: 0, results: [] } } });
    await expect(api('quests/')).resolves.toEqual({ count: 0, results: [] });
  });

  it('turns the error body into an ApiError with field errors', async () => {
    mockFetch({
      'PATCH /api/v1/me/': {
        status: 400,
        body: { type: 'validation_error', title: 'Invalid input.', status: 400, detail: 'time_zone: unknown', errors: { time_zone: ['Not a zone.'] } },
      },
    });
    const error = await api('me/', { method: 'PATCH', body: { time_zone: 'Mars/Olympus' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, type: 'validation_error', detail: 'time_zone: unknown' });
    expect((error as ApiError).fieldError('time_zone')).toBe('Not a zone.');
  });

  it('says when to retry a throttled request, from Retry-After', async () => {
    mockFetch({
      'POST /api/v1/lessons/x/reports/': {
        status: 429,
        headers: { 'Retry-After': '17' },
        body: { type: 'throttled', title: 'Throttled.', status: 429, detail: 'Request was throttled.', errors: {} },
      },
    });
    const error = (await api('lessons/x/reports/', { method: 'POST', body: {} }).catch((caught: unknown) => caught)) as ApiError;
    expect(error.retryAfter).toBe(17);
    expect(error.userMessage).toBe('Too many requests — try again in 17 s.');
  });

  it('asks a signed-out learner to sign in on 401', async () => {
    mockFetch({
      'GET /api/v1/me/': { status: 401, body: { type: 'not_authenticated', title: 'Not authenticated.', status: 401, detail: 'Credentials were not provided.', errors: {} } },
    });
    const error = (await api('me/').catch((caught: unknown) => caught)) as ApiError;
    expect(error.isUnauthenticated).toBe(true);
    expect(error.userMessage).toBe('Please sign in to continue.');
  });

  it('explains an answer that is not the API error shape', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })));
    const error = (await api('quests/').catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.userMessage).toMatch(/went wrong on the server/);
  });

  it('reports an unreachable server as a network error', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const error = (await api('quests/').catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(0);
    expect(error.userMessage).toMatch(/could not be reached/);
  });

  it('sends the CSRF cookie as X-CSRFToken on unsafe methods only', async () => {
    document.cookie = 'csrftoken=abc123; path=/';
    const { calls } = mockFetch({ 'GET /api/v1/me/': { body: {} }, 'POST /api/v1/me/notifications/read-all': { body: {} } });
    await api('me/');
    await api('me/notifications/read-all', { method: 'POST' });
    expect(calls[0].headers['X-CSRFToken']).toBeUndefined();
    expect(calls[1].headers['X-CSRFToken']).toBe('abc123');
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('5')).toBe(5);
    expect(parseRetryAfter(null)).toBeNull();
    const inTen = new Date(Date.now() + 10_000).toUTCString();
    expect(parseRetryAfter(inTen)).toBeGreaterThanOrEqual(9);
  });
});
