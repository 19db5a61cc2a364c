// django-allauth's headless API, browser client: the session cookie plus CSRF.
import { ApiError, rawRequest } from './api';

const BASE = '/_allauth/browser/v1';

export interface AllauthUser {
  id: number;
  display: string;
  email: string;
}
export interface Flow {
  id: string;
  is_pending?: boolean;
}
export interface AuthState {
  user: AllauthUser | null;
  isAuthenticated: boolean;
  /** Flows allauth offers or waits on (e.g. `verify_email` pending after sign-up). */
  flows: Flow[];
  /** The learner's time zone (from the platform's session; allauth's answers do not carry it). */
  timeZone?: string;
}
export interface UserSession {
  id: number;
  user_agent: string;
  ip: string;
  created_at: number;
  last_seen_at?: number;
  is_current: boolean;
}

interface AllauthBody {
  status: number;
  data?: { user?: AllauthUser; flows?: Flow[]; email?: string } & Record<string, unknown>;
  meta?: { is_authenticated?: boolean };
  errors?: { message: string; code: string; param?: string }[];
  retryAfter?: string | null;
}

async function call(path: string, method = 'GET', body?: unknown, headers?: Record<string, string>): Promise<AllauthBody> {
  const response = await rawRequest(`${BASE}${path}`, { method, body, headers });
  let parsed: AllauthBody;
  try {
    parsed = (await response.json()) as AllauthBody;
  } catch {
    parsed = { status: response.status };
  }
  return { ...parsed, status: parsed.status ?? response.status, retryAfter: response.headers.get('Retry-After') };
}

/** allauth answers 401 for "not signed in" (with flows) and 400 with `errors` for bad input. */
function toError(body: AllauthBody): ApiError {
  const errors: Record<string, string[]> = {};
  for (const error of body.errors ?? []) {
    const key = error.param ?? 'non_field_errors';
    (errors[key] ??= []).push(error.message);
  }
  const first = body.errors?.[0]?.message;
  const retry = body.retryAfter ? Number(body.retryAfter) : null;
  return new ApiError(
    {
      type: body.status === 429 ? 'throttled' : body.status === 409 ? 'conflict' : 'auth_error',
      title: 'Request failed.',
      status: body.status,
      detail: first ?? (body.status >= 500 ? 'Something went wrong on the server. Please try again.' : `Request failed (${body.status}).`),
      errors,
    },
    Number.isFinite(retry) ? retry : null,
  );
}

function toState(body: AllauthBody): AuthState {
  const isAuthenticated = Boolean(body.meta?.is_authenticated);
  return { isAuthenticated, user: isAuthenticated ? (body.data?.user ?? null) : null, flows: body.data?.flows ?? [] };
}

/** Answers that describe the auth state: 200 signed in, 401 signed out (or a pending flow). */
function stateOrThrow(body: AllauthBody): AuthState {
  if (body.status === 200 || (body.status === 401 && !body.errors)) return toState(body);
  throw toError(body);
}

export async function getConfig(): Promise<unknown> {
  const body = await call('/config');
  if (body.status !== 200) throw toError(body);
  return body.data;
}

export async function login(input: { email: string; password: string }): Promise<AuthState> {
  return stateOrThrow(await call('/auth/login', 'POST', input));
}

export async function signUp(input: { email: string; password: string }): Promise<AuthState> {
  return stateOrThrow(await call('/auth/signup', 'POST', input));
}

export async function logout(): Promise<AuthState> {
  return stateOrThrow(await call('/auth/session', 'DELETE'));
}

export async function getEmailVerification(key: string): Promise<{ email: string }> {
  const body = await call('/auth/email/verify', 'GET', undefined, { 'X-Email-Verification-Key': key });
  if (body.status !== 200) throw toError(body);
  return { email: String(body.data?.email ?? '') };
}

export async function verifyEmail(key: string): Promise<AuthState> {
  return stateOrThrow(await call('/auth/email/verify', 'POST', { key }));
}

export async function requestPasswordReset(email: string): Promise<void> {
  const body = await call('/auth/password/request', 'POST', { email });
  if (body.status !== 200) throw toError(body);
}

export async function checkPasswordResetKey(key: string): Promise<void> {
  const body = await call('/auth/password/reset', 'GET', undefined, { 'X-Password-Reset-Key': key });
  if (body.status !== 200) throw toError(body);
}

export async function resetPassword(input: { key: string; password: string }): Promise<AuthState> {
  return stateOrThrow(await call('/auth/password/reset', 'POST', input));
}

export async function listSessions(): Promise<UserSession[]> {
  const body = await call('/auth/sessions');
  if (body.status !== 200) throw toError(body);
  return (body.data as unknown as UserSession[]) ?? [];
}

export async function endSessions(ids: number[]): Promise<void> {
  const body = await call('/auth/sessions', 'DELETE', { sessions: ids });
  if (body.status !== 200) throw toError(body);
}

/**
 * Changes the password (the current one asked). allauth ends the account's other sessions and
 * keeps this one; the account's address is told by e-mail.
 */
export async function changePassword(input: { current_password: string; new_password: string }): Promise<void> {
  const body = await call('/account/password/change', 'POST', input);
  if (body.status !== 200) throw toError(body);
}

/** An e-mail address of the account, as allauth lists it. */
export interface EmailAddress {
  email: string;
  primary: boolean;
  verified: boolean;
}

async function emailCall(method: string, input?: Record<string, unknown>): Promise<EmailAddress[]> {
  const body = await call('/account/email', method, input);
  if (body.status !== 200) throw toError(body);
  return (body.data as unknown as EmailAddress[]) ?? [];
}

export const listEmailAddresses = () => emailCall('GET');
/** Adds an address, unverified: a confirmation link is mailed to it. */
export const addEmailAddress = (email: string) => emailCall('POST', { email });
export const resendEmailVerification = (email: string) => emailCall('PUT', { email });
/** Makes a verified address the account's own (allauth refuses an unverified one). */
export const makePrimaryEmailAddress = (email: string) => emailCall('PATCH', { email, primary: true });
export const removeEmailAddress = (email: string) => emailCall('DELETE', { email });
