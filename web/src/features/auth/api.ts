import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import * as allauth from '@/lib/allauth';
import { api } from '@/lib/api';
import type { Profile } from '@/lib/types';
import { syncLocalProgress } from '@/features/progress/sync';

export const sessionKey = ['auth', 'session'] as const;

interface SessionState {
  is_authenticated: boolean;
  user: Profile | null;
}

let configLoaded: Promise<unknown> | null = null;

/** GET config once per page load: it also sets the csrftoken cookie unsafe requests need. */
function ensureConfig(): Promise<unknown> {
  configLoaded ??= allauth.getConfig().catch((error: unknown) => {
    configLoaded = null;
    throw error;
  });
  return configLoaded;
}

/**
 * Who is signed in, from GET /api/v1/session: 200 whether signed in or not (allauth's own
 * auth/session answers 401 to a visitor, an error in the browser console on every page).
 * allauth's config is fetched alongside so the CSRF cookie is there before the first POST.
 */
export async function loadSession(): Promise<allauth.AuthState> {
  const [state] = await Promise.all([api<SessionState>('session'), ensureConfig()]);
  return {
    isAuthenticated: state.is_authenticated,
    user: state.user ? { id: state.user.id, email: state.user.email, display: state.user.display_name || state.user.email } : null,
    flows: [],
  };
}

export function useAuth() {
  const query = useQuery({ queryKey: sessionKey, queryFn: loadSession, staleTime: 60_000 });
  return {
    ...query,
    user: query.data?.user ?? null,
    isAuthenticated: query.data?.isAuthenticated ?? false,
  };
}

/** After signing in: hand over this device's progress, then refetch everything as the learner. */
async function afterSignIn(client: QueryClient, state: allauth.AuthState): Promise<void> {
  client.setQueryData(sessionKey, state);
  if (state.isAuthenticated) {
    try {
      await syncLocalProgress();
    } catch {
      // The events stay on the device; the next sign-in or page load sends them again.
    }
  }
  await client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
}

/** An allauth flow that may end signed in: config first (CSRF cookie), then the hand-over. */
function useSignInFlow<Input>(flow: (input: Input) => Promise<allauth.AuthState>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => {
      await ensureConfig();
      return flow(input);
    },
    onSuccess: (state) => afterSignIn(client, state),
  });
}

export const useLogin = () => useSignInFlow(allauth.login);
export const useSignUp = () => useSignInFlow(allauth.signUp);
export const useVerifyEmail = () => useSignInFlow(allauth.verifyEmail);
export const useResetPassword = () => useSignInFlow(allauth.resetPassword);

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: allauth.logout,
    onSuccess: async (state) => {
      client.setQueryData(sessionKey, state);
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
      await client.invalidateQueries();
    },
  });
}

export { ensureConfig };
