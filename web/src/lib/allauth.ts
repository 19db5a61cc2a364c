// django-allauth's headless API, browser client: the session cookie plus CSRF. Typed by the
// spec allauth serves (/_allauth/openapi.json, generated into allauth-schema.d.ts).
import createClient from 'openapi-fetch';
import type { components, paths } from './allauth-schema';
import { ApiError, clientOptions, parseRetryAfter, sessionMiddleware } from './api';

type Schemas = components['schemas'];

/** Who is signed in: allauth's user (ours always have an id and an e-mail address). */
export type AllauthUser = Required<Pick<Schemas['User'], 'id' | 'display' | 'email'>>;
export type Flow = Schemas['Flow'];
export interface AuthState {
  user: AllauthUser | null;
  isAuthenticated: boolean;
  /** Flows allauth offers or waits on (e.g. `verify_email` pending after sign-up). */
  flows: Flow[];
  /** The learner's time zone (from the platform's session; allauth's answers do not carry it). */
  timeZone?: string;
}
export type UserSession = Schemas['Session'];
/** An e-mail address of the account, as allauth lists it. */
export type EmailAddress = Schemas['EmailAddress'];

// Not the platform client's error middleware: allauth answers 401 for "signed out" (with its
// flows), an answer rather than an error.
const allauth = createClient<paths>(clientOptions);
allauth.use(sessionMiddleware);
const browser = { client: 'browser' } as const;

/** What openapi-fetch resolves with: the 2xx body as `data`, any other as `error`. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** allauth answers 400 with `errors` for bad input (429 throttled, 409 a conflict). */
function toError(body: unknown, response: Response): ApiError {
  const errors: Record<string, string[]> = {};
  const listed = typeof body === 'object' && body !== null && 'errors' in body ? (body as Schemas['ErrorResponse']).errors : undefined;
  for (const error of listed ?? []) {
    const key = error.param ?? 'non_field_errors';
    (errors[key] ??= []).push(error.message);
  }
  const status = response.status;
  const first = listed?.[0]?.message;
  return new ApiError(
    {
      type: status === 429 ? 'throttled' : status === 409 ? 'conflict' : 'auth_error',
      title: 'Request failed.',
      status,
      detail: first ?? (status >= 500 ? 'Something went wrong on the server. Please try again.' : `Request failed (${status}).`),
      errors,
    },
    parseRetryAfter(response.headers.get('Retry-After')),
  );
}

/** The 2xx answer's body; any other answer as ApiError. */
async function ok<T>(pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (response.ok && data !== undefined) return data;
  throw toError(error, response);
}

function isSignedOut(body: unknown): body is Schemas['AuthenticationResponse'] {
  return typeof body === 'object' && body !== null && 'data' in body && !('errors' in body);
}

/** Answers that describe the auth state: 200 signed in, 401 signed out (or a pending flow). */
async function stateOrThrow(pending: Promise<Answer<{ data: { user: Schemas['User'] }; meta: { is_authenticated?: boolean } }>>): Promise<AuthState> {
  const { data, error, response } = await pending;
  if (response.ok && data) {
    const isAuthenticated = Boolean(data.meta.is_authenticated);
    const { id, display, email } = data.data.user;
    return { isAuthenticated, user: isAuthenticated ? { id: id ?? 0, display, email: email ?? '' } : null, flows: [] };
  }
  if (response.status === 401 && isSignedOut(error)) return { isAuthenticated: false, user: null, flows: error.data.flows ?? [] };
  throw toError(error, response);
}

export async function getConfig(): Promise<Schemas['ConfigurationResponse']['data']> {
  return (await ok(allauth.GET('/_allauth/{client}/v1/config', { params: { path: browser } }))).data;
}

export async function login(input: { email: string; password: string }): Promise<AuthState> {
  return stateOrThrow(allauth.POST('/_allauth/{client}/v1/auth/login', { params: { path: browser }, body: input }));
}

export async function signUp(input: { email: string; password: string }): Promise<AuthState> {
  return stateOrThrow(allauth.POST('/_allauth/{client}/v1/auth/signup', { params: { path: browser }, body: input }));
}

export async function logout(): Promise<AuthState> {
  return stateOrThrow(allauth.DELETE('/_allauth/{client}/v1/auth/session', { params: { path: browser } }));
}

export async function getEmailVerification(key: string): Promise<{ email: string }> {
  const answer = await ok(
    allauth.GET('/_allauth/{client}/v1/auth/email/verify', { params: { path: browser, header: { 'X-Email-Verification-Key': key } } }),
  );
  return { email: answer.data.email };
}

export async function verifyEmail(key: string): Promise<AuthState> {
  return stateOrThrow(allauth.POST('/_allauth/{client}/v1/auth/email/verify', { params: { path: browser }, body: { key } }));
}

export async function requestPasswordReset(email: string): Promise<void> {
  await ok(allauth.POST('/_allauth/{client}/v1/auth/password/request', { params: { path: browser }, body: { email } }));
}

export async function checkPasswordResetKey(key: string): Promise<void> {
  await ok(allauth.GET('/_allauth/{client}/v1/auth/password/reset', { params: { path: browser, header: { 'X-Password-Reset-Key': key } } }));
}

export async function resetPassword(input: { key: string; password: string }): Promise<AuthState> {
  return stateOrThrow(allauth.POST('/_allauth/{client}/v1/auth/password/reset', { params: { path: browser }, body: input }));
}

export async function listSessions(): Promise<UserSession[]> {
  return (await ok(allauth.GET('/_allauth/{client}/v1/auth/sessions', { params: { path: browser } }))).data;
}

export async function endSessions(ids: number[]): Promise<void> {
  await ok(allauth.DELETE('/_allauth/{client}/v1/auth/sessions', { params: { path: browser }, body: { sessions: ids } }));
}

/**
 * Changes the password (the current one asked). allauth ends the account's other sessions and
 * keeps this one; the account's address is told by e-mail.
 */
export async function changePassword(input: { current_password: string; new_password: string }): Promise<void> {
  await ok(allauth.POST('/_allauth/{client}/v1/account/password/change', { params: { path: browser }, body: input }));
}

const emails = '/_allauth/{client}/v1/account/email';
const addresses = async (pending: Promise<Answer<{ data: EmailAddress[] }>>) => (await ok(pending)).data;

export const listEmailAddresses = () => addresses(allauth.GET(emails, { params: { path: browser } }));
/** Adds an address, unverified: a confirmation link is mailed to it. */
export const addEmailAddress = (email: string) => addresses(allauth.POST(emails, { params: { path: browser }, body: { email } }));
/** Mails the confirmation link again; allauth answers no list to this one, so it is read after. */
export async function resendEmailVerification(email: string): Promise<EmailAddress[]> {
  await ok(allauth.PUT(emails, { params: { path: browser }, body: { email } }));
  return listEmailAddresses();
}
/** Makes a verified address the account's own (allauth refuses an unverified one). */
export const makePrimaryEmailAddress = (email: string) => addresses(allauth.PATCH(emails, { params: { path: browser }, body: { email, primary: true } }));
export const removeEmailAddress = (email: string) => addresses(allauth.DELETE(emails, { params: { path: browser }, body: { email } }));
