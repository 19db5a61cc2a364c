import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import * as allauth from '@/lib/allauth';
import { api } from '@/lib/api';
import { adoptDeviceRecord, ownerOf } from '@/lib/celebrations';
import { syncLocalProgress } from '@/lib/progressSync';
import { adoptAuthState, signedOutHere } from '@/lib/signOut';
import { AUTH_ROOT, ensureConfig, isAuthQuery, sessionQuery } from '@/lib/session';
import { browserZone } from '@/lib/timeZones';
import type { ProfileInput } from '@/lib/types';

export const authQueries = {
  /** The e-mail a verification link is for (config first: the CSRF cookie). */
  verifyEmail: (key: string) =>
    queryOptions({
      queryKey: [AUTH_ROOT, 'verify-email', key],
      queryFn: async ({ client }) => {
        await ensureConfig(client);
        return allauth.getEmailVerification(key);
      },
      retry: false,
    }),
  /** Whether a password-reset link is still valid. */
  resetKey: (key: string) =>
    queryOptions({
      queryKey: [AUTH_ROOT, 'reset-key', key],
      queryFn: async ({ client }) => {
        await ensureConfig(client);
        await allauth.checkPasswordResetKey(key);
        return true;
      },
      retry: false,
    }),
};

/** allauth's answer, with how many of this device's lessons the sign-in handed over. */
export type SignedInState = allauth.AuthState & { synced: number };

/** After signing in: hand over this device's progress, then refetch everything as the learner. */
async function afterSignIn(client: QueryClient, state: allauth.AuthState): Promise<SignedInState> {
  await adoptAuthState(client, state);
  let synced = 0;
  if (state.isAuthenticated) {
    try {
      synced = (await syncLocalProgress())?.synced ?? 0;
    } catch {
      // The events stay on the device; the next sign-in or page load sends them again.
    }
  }
  await client.invalidateQueries({ predicate: (query) => !isAuthQuery(query) });
  // allauth's answer names the learner but not their time zone: the platform's session does.
  void client.invalidateQueries({ queryKey: sessionQuery.queryKey });
  return { ...state, synced };
}

/** A new account starts in the browser's time zone (the server's default is UTC). */
async function signUpInBrowserZone(input: { email: string; password: string }): Promise<allauth.AuthState> {
  const state = await allauth.signUp(input);
  // What the sign-up's sync brings (a level, achievements) is new to this learner: celebrated.
  if (state.isAuthenticated && state.user) adoptDeviceRecord(ownerOf(state.user.id));
  const zone = browserZone();
  if (state.isAuthenticated && zone !== 'UTC') {
    // The browser may name a zone the schema does not list: the server refuses it (400) and the
    // account stays in UTC, which Settings can change.
    await api.PATCH('/api/v1/me/', { body: { time_zone: zone as ProfileInput['time_zone'] } }).catch(() => undefined);
  }
  return state;
}

/** An allauth flow that may end signed in: config first (CSRF cookie), then the hand-over. */
function useSignInFlow<Input>(flow: (input: Input) => Promise<allauth.AuthState>) {
  const client = useQueryClient();
  return useMutation({
    // The hand-over is part of the mutation: its answer says how many lessons it synced.
    mutationFn: async (input: Input) => {
      await ensureConfig(client);
      return afterSignIn(client, await flow(input));
    },
  });
}

export const useLogin = () => useSignInFlow(allauth.login);
export const useSignUp = () => useSignInFlow(signUpInBrowserZone);
export const useVerifyEmail = () => useSignInFlow(allauth.verifyEmail);
export const useResetPassword = () => useSignInFlow(allauth.resetPassword);

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: allauth.logout,
    onSuccess: (state) => signedOutHere(client, state),
  });
}
