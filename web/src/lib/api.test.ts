import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { failNextRequest, mockApi } from '@/test/mockApi';
import { profile } from '@/test/fixtures';
import { server } from '@/test/server';
import { api, ApiError, data, nextPage, parseRetryAfter } from './api';

describe('api client', () => {
  it('parses a JSON answer', async () => {
    mockApi({ 'GET /api/v1/quests/': { body: { count: 0, results: [] } } });
    await expect(data(api.GET('/api/v1/quests/'))).resolves.toEqual({ count: 0, results: [] });
  });

  it('turns the error body into an ApiError with field errors', async () => {
    mockApi({
      'PATCH /api/v1/me/': {
        status: 400,
        body: { type: 'validation_error', title: 'Invalid input.', status: 400, detail: 'time_zone: unknown', errors: { time_zone: ['Not a zone.'] } },
      },
    });
    // The schema lists the zones; a browser's unknown one reaches the server all the same.
    const body = { time_zone: 'Mars/Olympus' as 'UTC' };
    const error = await api.PATCH('/api/v1/me/', { body }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, type: 'validation_error', detail: 'time_zone: unknown' });
    expect((error as ApiError).fieldError('time_zone')).toBe('Not a zone.');
  });

  it('says when to retry a throttled request, from Retry-After', async () => {
    mockApi({
      'POST /api/v1/lessons/x/reports/': {
        status: 429,
        headers: { 'Retry-After': '17' },
        body: { type: 'throttled', title: 'Throttled.', status: 429, detail: 'Request was throttled.', errors: {} },
      },
    });
    const body = { kind: 'typo' as const, message: 'A typo.' };
    const error = (await api.POST('/api/v1/lessons/{slug}/reports/', { params: { path: { slug: 'x' } }, body }).catch((caught: unknown) => caught)) as ApiError;
    expect(error.retryAfter).toBe(17);
    expect(error.userMessage).toBe('Too many requests — try again in 17 s.');
  });

  it('asks a signed-out learner to sign in on 401', async () => {
    mockApi({
      'GET /api/v1/me/': { status: 401, body: { type: 'not_authenticated', title: 'Not authenticated.', status: 401, detail: 'Credentials were not provided.', errors: {} } },
    });
    const error = (await api.GET('/api/v1/me/').catch((caught: unknown) => caught)) as ApiError;
    expect(error.isUnauthenticated).toBe(true);
    expect(error.userMessage).toBe('Please sign in to continue.');
  });

  it('explains an answer that is not the API error shape', async () => {
    server.use(http.get('*/api/v1/quests/', () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })));
    const error = (await api.GET('/api/v1/quests/').catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.userMessage).toMatch(/went wrong on the server/);
  });

  it('reports an unreachable server as a network error', async () => {
    failNextRequest();
    const error = (await api.GET('/api/v1/quests/').catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(0);
    expect(error.userMessage).toMatch(/could not be reached/);
  });

  it('sends the CSRF cookie as X-CSRFToken on unsafe methods only', async () => {
    document.cookie = 'csrftoken=abc123; path=/';
    const { calls } = mockApi({ 'GET /api/v1/me/': { body: profile }, 'POST /api/v1/me/notifications/read-all': { body: { marked_read: 0, unread_count: 0 } } });
    await api.GET('/api/v1/me/');
    await api.POST('/api/v1/me/notifications/read-all');
    expect(calls[0].headers.get('X-CSRFToken')).toBeNull();
    expect(calls[1].headers.get('X-CSRFToken')).toBe('abc123');
  });

  it('sends path and query parameters as the schema names them', async () => {
    const { calls } = mockApi({ 'GET /api/v1/lessons/a%20b/comments/': { body: { count: 0, next: null, previous: null, results: [] } } });
    await api.GET('/api/v1/lessons/{slug}/comments/', { params: { path: { slug: 'a b' }, query: { page: 2, page_size: 5 } } });
    expect(calls[0].url).toBe('/api/v1/lessons/a%20b/comments/?page=2&page_size=5');
  });

  it("reads the next page's number from a paginated answer's link", () => {
    expect(nextPage('http://testserver/api/v1/me/reports/?page=3&page_size=20')).toBe(3);
    expect(nextPage(null)).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('5')).toBe(5);
    expect(parseRetryAfter(null)).toBeNull();
    const inTen = new Date(Date.now() + 10_000).toUTCString();
    expect(parseRetryAfter(inTen)).toBeGreaterThanOrEqual(9);
  });
});
