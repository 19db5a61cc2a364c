// The one HTTP layer: JSON in and out, the session cookie, the CSRF header, and the API's
// error shape turned into ApiError (401 → sign in, 429 → try again in N s).

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

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Sends a request with the session cookie and, for unsafe methods, the CSRF token. */
export async function rawRequest(path: string, options: RequestOptions = {}): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (UNSAFE.has(method)) {
    // Read on every request: Django rotates the token when a learner signs in.
    const token = readCookie('csrftoken');
    if (token) headers['X-CSRFToken'] = token;
  }
  try {
    return await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({
      type: 'network_error',
      title: 'Network error.',
      status: 0,
      detail: 'The server could not be reached. Check your connection and try again.',
      errors: {},
    });
  }
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

/** A request to the platform API; resolves with the parsed body, rejects with ApiError. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await rawRequest(path.startsWith('/') ? path : `/api/v1/${path}`, options);
  if (!response.ok) throw await errorFrom(response);
  return (await readJson(response)) as T;
}

/** A same-origin path for an absolute URL the API hands out (replies_url, Location). */
export function toPath(url: string): string {
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}
