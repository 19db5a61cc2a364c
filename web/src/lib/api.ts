// The one HTTP layer: a client typed by the API's schema (openapi-fetch), the session cookie,
// the CSRF header, and the API's error shape turned into ApiError (401 → sign in, 429 → try
// again in N s).

import createClient, { type ClientOptions, type Middleware } from 'openapi-fetch';
import type { paths } from './api-schema';
import type { ApiErrorBody } from './types';

export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: Record<string, string[]>;
  /** Seconds to wait before retrying (from Retry-After), for 429 answers. */
  readonly retryAfter: number | null;

  constructor(body: ApiErrorBody, retryAfter: number | null = null) {
    super(body.detail || body.title);
    this.name = 'ApiError';
    this.status = body.status;
    this.type = body.type;
    this.title = body.title;
    this.detail = body.detail;
    this.errors = body.errors ?? {};
    this.retryAfter = retryAfter;
  }

  get isUnauthenticated(): boolean {
    return this.status === 401;
  }

  /** A sentence for the learner. */
  get userMessage(): string {
    if (this.status === 429) {
      return this.retryAfter != null
        ? `Too many requests — try again in ${this.retryAfter} s.`
        : 'Too many requests — try again shortly.';
    }
    if (this.status === 401) return 'Please sign in to continue.';
    if (this.status === 0) return 'The server could not be reached. Check your connection and try again.';
    return this.detail || this.title || `Request failed (${this.status}).`;
  }

  /** The first message for a field (or the whole form). */
  fieldError(field: string): string | undefined {
    return this.errors[field]?.[0];
  }
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function parseRetryAfter(value: string | null): number | null {
  if (value == null || value === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && 'status' in value && 'type' in value;
}

/** Turns a non-2xx answer into an ApiError, whatever its body. */
export async function errorFrom(response: Response): Promise<ApiError> {
  const body = await readJson(response);
  const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
  if (isErrorBody(body)) return new ApiError({ ...body, status: response.status }, retryAfter);
  return new ApiError(
    {
      type: response.status >= 500 ? 'server_error' : 'http_error',
      title: response.statusText || 'Request failed.',
      status: response.status,
      detail:
        response.status >= 500
          ? 'Something went wrong on the server. Please try again.'
          : `Request failed (${response.status}).`,
      errors: {},
    },
    retryAfter,
  );
}

/** The session cookie and, for unsafe methods, the CSRF token; an unreachable server as ApiError. */
export const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    request.headers.set('Accept', 'application/json');
    if (UNSAFE.has(request.method)) {
      // Read on every request: Django rotates the token when a learner signs in.
      const token = readCookie('csrftoken');
      if (token) request.headers.set('X-CSRFToken', token);
    }
    return request;
  },
  onError({ error }) {
    if (error instanceof DOMException && error.name === 'AbortError') return error;
    return new ApiError({
      type: 'network_error',
      title: 'Network error.',
      status: 0,
      detail: 'The server could not be reached. Check your connection and try again.',
      errors: {},
    });
  },
};

/**
 * The options both typed clients share: absolute URLs (a Request needs one outside a browser),
 * the session cookie, and fetch looked up at each call rather than kept from the start, so what
 * replaces it later (a test's Mock Service Worker) is the one used.
 */
export const clientOptions = {
  baseUrl: typeof location === 'undefined' ? '' : location.origin,
  credentials: 'same-origin',
  fetch: (request: Request) => globalThis.fetch(request),
} satisfies ClientOptions;

/**
 * The platform API, typed by its OpenAPI schema (api-schema.d.ts): each path, its parameters,
 * its body and its answer. Any non-2xx answer rejects with ApiError.
 */
export const api = createClient<paths>(clientOptions);
api.use(sessionMiddleware, {
  async onResponse({ response }) {
    if (!response.ok) throw await errorFrom(response);
    return undefined;
  },
});

/**
 * The answer's body, typed by the schema: `await data(api.GET('/api/v1/quests/'))`. The
 * client has rejected every non-2xx answer already; an empty body (204) is undefined.
 */
export async function data<T>(pending: Promise<{ data?: T }>): Promise<T> {
  return (await pending).data as T;
}

/** The page number in a paginated answer's `next` link, for the next request's `page`. */
export function nextPage(next: string | null | undefined): number | undefined {
  if (!next) return undefined;
  const page = Number(new URL(next, 'http://any').searchParams.get('page'));
  return Number.isInteger(page) && page > 0 ? page : undefined;
}
