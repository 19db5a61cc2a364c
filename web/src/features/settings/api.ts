import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, data } from '@/lib/api';
import * as allauth from '@/lib/allauth';
import { endSessions, listSessions } from '@/lib/allauth';
import { profileQuery, useUpdateProfile } from '@/lib/profile';
import { AUTH_ROOT, sessionQuery } from '@/lib/session';
import { signedOutHere } from '@/lib/signOut';
import type { AccountDeletion, DeletionInput } from '@/lib/types';

export const settingsQueries = {
  profile: profileQuery,
  /** The learner's signed-in devices (allauth's sessions). */
  sessions: () => queryOptions({ queryKey: [AUTH_ROOT, 'sessions'], queryFn: listSessions }),
  /** The account's e-mail addresses: its own (primary) and one waiting for confirmation. */
  emails: () => queryOptions({ queryKey: ['account', 'emails'], queryFn: allauth.listEmailAddresses }),
  /** What deleting the account means (the grace period), said before asking. */
  deletionTerms: () => queryOptions({ queryKey: ['account', 'deletion'], queryFn: () => data(api.GET('/api/v1/me/deletion')), staleTime: Infinity }),
};

export { useUpdateProfile };

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => endSessions([id]),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsQueries.sessions().queryKey }),
  });
}

export interface PasswordChange {
  current_password: string;
  new_password: string;
  /** Whether this device stays signed in (the others are signed out either way). */
  keepThisDevice: boolean;
}

/**
 * Changes the password; allauth signs out the other devices and keeps this one. Without
 * `keepThisDevice` this one signs out too, once the password has changed; then `leave` moves off
 * the settings page, and this tab (then the others) shows the learner signed out once the page is
 * gone, as after a deletion.
 */
export function useChangePassword(leave: () => void) {
  const client = useQueryClient();
  const signOutOnLeave = useSignOutOnLeave();
  return useMutation({
    mutationFn: async ({ keepThisDevice, ...input }: PasswordChange) => {
      await allauth.changePassword(input);
      if (!keepThisDevice) await allauth.logout();
      return keepThisDevice;
    },
    onSuccess: (kept) => {
      if (kept) return client.invalidateQueries({ queryKey: settingsQueries.sessions().queryKey });
      signOutOnLeave();
      leave();
    },
  });
}

/**
 * For a change that ended this tab's session: call it, then navigate away; the tab shows the
 * learner signed out once the page is gone. Before, the page's sign-in guard would send them to
 * sign in instead of to the message the navigation carries.
 */
function useSignOutOnLeave(): () => void {
  const client = useQueryClient();
  const ended = useRef(false);
  useEffect(
    () => () => {
      if (ended.current) void signedOutHere(client);
    },
    [client],
  );
  return () => {
    ended.current = true;
  };
}

/** A change of the account's addresses: allauth answers the whole list, kept as the query's data. */
function useEmailChange<Input>(change: (input: Input) => Promise<allauth.EmailAddress[]>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (addresses) => {
      client.setQueryData(settingsQueries.emails().queryKey, addresses);
      // The profile and the session carry the account's address.
      void client.invalidateQueries({ queryKey: settingsQueries.profile().queryKey });
      void client.invalidateQueries({ queryKey: sessionQuery.queryKey });
    },
  });
}

export const useAddEmail = () => useEmailChange(allauth.addEmailAddress);
export const useResendEmail = () => useEmailChange(allauth.resendEmailVerification);
export const useRemoveEmail = () => useEmailChange(allauth.removeEmailAddress);

/** A confirmed address becomes the account's own; the old ones go (their owner is told by e-mail). */
export const useSwitchEmail = () =>
  useEmailChange(async (email: string) => {
    const addresses = await allauth.makePrimaryEmailAddress(email);
    let left = addresses;
    for (const old of addresses.filter((address) => address.email !== email)) left = await allauth.removeEmailAddress(old.email);
    return left;
  });

/** The learner's data (GET /me/data), saved as a JSON file. */
export function useDownloadData() {
  return useMutation({
    mutationFn: async () => {
      const answer = await data(api.GET('/api/v1/me/data'));
      const day = new Date().toISOString().slice(0, 10);
      saveFile(new Blob([JSON.stringify(answer, null, 2)], { type: 'application/json' }), `learning-platform-data-${day}.json`);
    },
  });
}

function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click's task: the browser has started the download by then.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Asks for the account's deletion. The server ends every session at once: see useSignOutOnLeave. */
export function useDeleteAccount(leave: (answer: AccountDeletion) => void) {
  const signOutOnLeave = useSignOutOnLeave();
  return useMutation({
    mutationFn: (input: DeletionInput) => data(api.POST('/api/v1/me/deletion', { body: input })),
    onSuccess: (answer) => {
      signOutOnLeave();
      leave(answer);
    },
  });
}
