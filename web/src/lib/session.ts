// Who is signed in: read by every feature, so it lives here rather than in features/auth.
import { queryOptions, useQuery, type QueryClient, type QueryFunctionContext } from '@tanstack/react-query';
import * as allauth from './allauth';
import { api, data } from './api';
import { keptForOffline, type OfflineCopy, PERSONAL_CACHE } from './offline';
import type { SessionState } from './types';

const readSession = () => data(api.GET('/api/v1/session'));

/**
 * The root of the session's key and the auth flows' keys: queries under it are about signing in
 * itself, so signing in or out refetches every query but these.
 */
export const AUTH_ROOT = 'auth';
export const isAuthQuery = (query: { queryKey: readonly unknown[] }) => query.queryKey[0] === AUTH_ROOT;

const configQuery = queryOptions({
  queryKey: [AUTH_ROOT, 'config'],
  queryFn: allauth.getConfig,
  staleTime: Infinity,
  gcTime: Infinity,
  retry: false,
});

/** GET allauth's config once per page load (query client): it also sets the csrftoken cookie unsafe requests need. */
export function ensureConfig(client: QueryClient): Promise<unknown> {
  return client.ensureQueryData(configQuery);
}

/**
 * Who is signed in, from GET /api/v1/session: 200 whether signed in or not (allauth's own
 * auth/session answers 401 to a visitor, an error in the browser console on every page).
 * allauth's config is fetched alongside so the CSRF cookie is there before the first POST.
 */
async function loadSession({ client }: QueryFunctionContext): Promise<allauth.AuthState> {
  // Offline, the session comes from the service worker's copy and the config not at all (auth
  // is never kept): the page still knows who is signed in, and the CSRF cookie an earlier visit set stays.
  const [state] = await Promise.all([keptForOffline(SESSION_COPY.url, readSession, SESSION_COPY.cacheName), ensureConfig(client).catch(() => undefined)]);
  return toAuthState(state);
}

const SESSION_COPY: OfflineCopy = { url: '/api/v1/session', cacheName: PERSONAL_CACHE };

/** The app's view of GET /api/v1/session's answer. */
export function toAuthState(state: SessionState): allauth.AuthState {
  return {
    isAuthenticated: state.is_authenticated,
    user: state.user ? { id: state.user.id, email: state.user.email, display: state.user.display_name || state.user.email } : null,
    flows: [],
    timeZone: state.user?.time_zone,
  };
}

export const sessionQuery = queryOptions({ queryKey: [AUTH_ROOT, 'session'], queryFn: loadSession, meta: { offline: SESSION_COPY }, staleTime: 60_000 });

export function useAuth() {
  const query = useQuery(sessionQuery);
  return {
    ...query,
    user: query.data?.user ?? null,
    isAuthenticated: query.data?.isAuthenticated ?? false,
  };
}

/** The zone every time on screen is written in: the learner's, or the browser's when signed out. */
export function useTimeZone(): string | undefined {
  const { data } = useQuery(sessionQuery);
  return data?.timeZone;
}
