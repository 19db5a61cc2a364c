// The API as the tests see it: Mock Service Worker answers the app's real requests (openapi-fetch,
// fetch, Request and Response all run), from a table of routes whose answers are typed by the
// schemas the app is typed by (api-schema.d.ts, allauth-schema.d.ts).
import { http, HttpResponse } from 'msw';
import type { paths as AllauthPaths } from '@/lib/allauth-schema';
import type { paths as ApiPaths } from '@/lib/api-schema';
import type { ApiErrorBody, Profile } from '@/lib/types';
import { server } from './server';

type Paths = ApiPaths & AllauthPaths;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Segments<S extends string> = S extends `${infer Head}/${infer Tail}` ? [Head, ...Segments<Tail>] : [S];
/** Whether a concrete path's segments fit a schema path's, where `{name}` fits any segment. */
type Fits<Concrete extends string[], Template extends string[]> = Concrete extends [infer C, ...infer CRest extends string[]]
  ? Template extends [infer T, ...infer TRest extends string[]]
    ? T extends `{${string}}`
      ? Fits<CRest, TRest>
      : C extends T
        ? Fits<CRest, TRest>
        : false
    : false
  : Template extends []
    ? true
    : false;
/** The schema's operation for "METHOD /concrete/path?query" (never when the schema has none). */
type OperationOf<Key extends string> = Key extends `${infer M extends Method} ${infer Url}`
  ? Url extends `${infer Path}?${string}`
    ? OperationAt<M, Path>
    : OperationAt<M, Url>
  : never;
type OperationAt<M extends Method, Path extends string> = {
  [P in keyof Paths & string]: Fits<Segments<Path>, Segments<P>> extends true ? NonNullable<Paths[P][Lowercase<M> & keyof Paths[P]]> : never;
}[keyof Paths & string];

type Json<R> = R extends { content: { 'application/json': infer Body } } ? Body : undefined;
type Responses<Op> = Op extends { responses: infer R } ? R : never;
type Success<Op> = { [S in keyof Responses<Op>]: S extends 200 | 201 | 202 | 204 ? Json<Responses<Op>[S]> : never }[keyof Responses<Op>];
type Failure<Op> = { [S in keyof Responses<Op>]: S extends 200 | 201 | 202 | 204 ? never : Json<Responses<Op>[S]> }[keyof Responses<Op>];

/** An answer: its status (200 when left out), body and headers. */
export interface MockResponse<Body = unknown> {
  status?: number;
  body?: Body;
  headers?: Record<string, string>;
}
/** The answer the schema allows: a success body, or (with its status) an error body. */
export type TypedResponse<Op> =
  | { status?: 200 | 201 | 202 | 204; body?: Success<Op>; headers?: Record<string, string> }
  | { status: number; body?: Failure<Op> | ApiErrorBody; headers?: Record<string, string> };

export interface RecordedCall {
  url: string;
  method: string;
  body: unknown;
  headers: Headers;
}
export type Handler<Answer = MockResponse> = (request: RecordedCall) => Answer | Promise<Answer>;

/**
 * A route's answer, checked against the schema: a literal key under /api/ or /_allauth/ must be a
 * path the schema has. A key built at run time (a `string`) or outside the API (a page) is not
 * checked: its answer is any MockResponse.
 */
export type Route<Key extends string> = Key extends `${Method} /api/${string}` | `${Method} /_allauth/${string}`
  ? [OperationOf<Key>] extends [never]
    ? `no such path in the API schemas: ${Key}`
    : Handler<TypedResponse<OperationOf<Key>>> | TypedResponse<OperationOf<Key>>
  : Handler | MockResponse;
export type Routes = Record<string, Handler | MockResponse>;
/** The answers the schema allows for a route key, e.g. `Answer<'GET /api/v1/session'>`. */
export type Answer<Key extends string> = TypedResponse<OperationOf<Key>>;

/**
 * Answers the app's requests from `routes`: "METHOD /path" (without the query string, or with it
 * when the key has one) to an answer or a handler. A request no route answers fails as MSW's
 * unhandled request (the app sees a network error; MSW says which). A handler may answer with a
 * promise, to hold a request in flight until the test resolves it; a handler that throws fails
 * the request as an unreachable server would. Replaces the routes before it.
 */
export function mockApi<Key extends string>(routes: { [K in Key]: Route<K> }) {
  const table = routes as unknown as Routes;
  const calls: RecordedCall[] = [];
  server.resetHandlers(
    http.all('*', async ({ request }) => {
      const url = new URL(request.url);
      const route = table[`${request.method} ${url.pathname}${url.search}`] ?? table[`${request.method} ${url.pathname}`];
      if (!route) return undefined; // unhandled: MSW's onUnhandledRequest says so
      const text = await request.clone().text();
      const call = { url: url.pathname + url.search, method: request.method, body: text ? JSON.parse(text) : undefined, headers: request.headers };
      calls.push(call);
      let answer: MockResponse;
      try {
        answer = typeof route === 'function' ? await route(call) : route;
      } catch {
        return HttpResponse.error();
      }
      return new HttpResponse(answer.body === undefined ? null : JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'Content-Type': 'application/json', ...answer.headers },
      });
    }),
  );
  return { calls };
}

/** The next request (whichever) fails as an unreachable server would. */
export function failNextRequest(): void {
  server.use(http.all('*', () => HttpResponse.error(), { once: true }));
}

export const signedOutSession: Answer<'GET /api/v1/session'> = { body: { is_authenticated: false, user: null } };
export const allauthConfig: Answer<'GET /_allauth/browser/v1/config'> = {
  body: {
    status: 200,
    data: {
      account: { login_methods: ['email'], is_open_for_signup: true, email_verification_by_code_enabled: false, login_by_code_enabled: false, password_reset_by_code_enabled: false },
      usersessions: { track_activity: false },
    },
  },
};
/** allauth's answer to a successful sign-in, sign-up or e-mail confirmation. */
export function signedInAnswer(email = 'ada@example.com'): Answer<'POST /_allauth/browser/v1/auth/login'> {
  return {
    status: 200,
    body: { status: 200, data: { user: { id: 1, display: 'ada', email, has_usable_password: true }, methods: [] }, meta: { is_authenticated: true } },
  };
}
/** GET /api/v1/me/ for the learner signedInSession() names. */
export const profile: Profile = {
  id: 1,
  email: 'ada@example.com',
  display_name: 'Ada',
  public_name: 'Ada',
  time_zone: 'UTC',
  reply_notifications: true,
  email_notifications: true,
  show_on_leaderboard: true,
  reminder_time: null,
  date_joined: '2026-11-01T00:00:00Z',
  deletion_requested_at: null,
  name_invited_at: null,
};
/** GET /api/v1/session for a signed-in learner. */
export function signedInSession(email = 'ada@example.com'): Answer<'GET /api/v1/session'> {
  return { body: { is_authenticated: true, user: { ...profile, email } } };
}
