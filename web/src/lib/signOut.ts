// Signing out, here and in the app's other tabs: the session cookie is shared by every tab, so
// when one tab ends the session the others must stop showing the learner at once, not at their
// next request's 401.
import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { AuthState } from './allauth';
import { forgetPersonalCaches } from './offline';
import { isAuthQuery, sessionQuery } from './session';

/** The BroadcastChannel (and, where there is none, the localStorage key) tabs tell each other on. */
export const SIGN_OUT_CHANNEL = 'lp-auth';
const SIGNED_OUT = 'signed-out';
const SIGNED_OUT_STATE: AuthState = { isAuthenticated: false, user: null, flows: [] };

/**
 * Makes allauth's answer the app's view of who is signed in. A session check still in flight
 * is dropped first: the server may have read it before this sign-in or sign-out, and landing
 * after it would undo it (a learner shown signed in again just after signing out).
 */
export async function adoptAuthState(client: QueryClient, state: AuthState): Promise<void> {
  await client.cancelQueries({ queryKey: sessionQuery.queryKey });
  client.setQueryData(sessionQuery.queryKey, state);
}

/** Shows this tab signed out: the learner's data leaves the cache and every read asks again. */
async function showSignedOut(client: QueryClient, state: AuthState, forgetCaches: boolean): Promise<void> {
  await adoptAuthState(client, state);
  client.removeQueries({ predicate: (query) => !isAuthQuery(query) });
  // Before the refetches, which keep the signed-out answers in their place.
  if (forgetCaches) await forgetPersonalCaches();
  await client.invalidateQueries();
}

/**
 * The session ended in this tab (signed out, or the account's deletion asked, which ends every
 * session): show it and tell the other tabs.
 */
export async function signedOutHere(client: QueryClient, state: AuthState = SIGNED_OUT_STATE): Promise<void> {
  await showSignedOut(client, state, true);
  announceSignOut();
}

function announceSignOut(): void {
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(SIGN_OUT_CHANNEL);
    channel.postMessage(SIGNED_OUT);
    channel.close();
    return;
  }
  try {
    // A storage event reaches the other tabs only when the value changes: a new one each time.
    localStorage.setItem(SIGN_OUT_CHANNEL, `${SIGNED_OUT}:${Date.now()}`);
  } catch {
    // Storage refused (private mode): the other tabs find out at their next request's 401.
  }
}

/**
 * Follows a sign-out announced by another tab: this tab shows the learner signed out at once,
 * then asks the server (the session query is invalidated with the rest), which has the last word.
 */
export function useSignOutFromOtherTabs(): void {
  const client = useQueryClient();
  useEffect(() => {
    const follow = () => void showSignedOut(client, SIGNED_OUT_STATE, false);
    if (typeof BroadcastChannel !== 'undefined') {
      const channel = new BroadcastChannel(SIGN_OUT_CHANNEL);
      channel.onmessage = (event: MessageEvent) => {
        if (event.data === SIGNED_OUT) follow();
      };
      return () => channel.close();
    }
    const onStorage = (event: StorageEvent) => {
      if (event.key === SIGN_OUT_CHANNEL && event.newValue?.startsWith(SIGNED_OUT)) follow();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [client]);
}
