import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, data } from '@/lib/api';
import * as allauth from '@/lib/allauth';
import { endSessions, listSessions } from '@/lib/allauth';
import { leaderboardQueries } from '@/lib/queries';
import { AUTH_ROOT, sessionQuery } from '@/lib/session';
import { signedOutHere } from '@/lib/signOut';
import type { AccountDeletion, DeletionInput, ProfileInput } from '@/lib/types';

export const settingsQueries = {
  profile: () => queryOptions({ queryKey: ['me'], queryFn: () => data(api.GET('/api/v1/me/')) }),
  /** The learner's signed-in devices (allauth's sessions). */
  sessions: () => queryOptions({ queryKey: [AUTH_ROOT, 'sessions'], queryFn: listSessions }),
  /** The account's e-mail addresses: its own (primary) and one waiting for confirmation. */
  emails: () => queryOptions({ queryKey: ['account', 'emails'], queryFn: allauth.listEmailAddresses }),
  /** What deleting the account means (the grace period), said before asking. */
  deletionTerms: () => queryOptions({ queryKey: ['account', 'deletion'], queryFn: () => data(api.GET('/api/v1/me/deletion')), staleTime: Infinity }),
};

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => data(api.PATCH('/api/v1/me/', { body: input })),
    onSuccess: (profile) => {
      client.setQueryData(settingsQueries.profile().queryKey, profile);
      // Every time on screen follows the learner's zone at once.
      client.setQueryData(sessionQuery.queryKey, (state) => (state ? { ...state, timeZone: profile.time_zone } : state));
      void client.invalidateQueries({ queryKey: leaderboardQueries.all });
    },
  });
}

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => endSessions([id]),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsQueries.sessions().queryKey }),
  });
}

/** Changes the password; the other devices are signed out (the list of devices follows). */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: allauth.changePassword,
    onSuccess: () => client.invalidateQueries({ queryKey: settingsQueries.sessions().queryKey }),
  });
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

/**
 * Asks for the account's deletion. The server ends every session at once; `leave` moves off the
 * settings page, and this tab (then the others) shows the learner signed out once the page is
 * gone: before, its sign-in guard would send them to sign in instead of to `leave`'s message.
 */
export function useDeleteAccount(leave: (answer: AccountDeletion) => void) {
  const client = useQueryClient();
  const deleted = useRef(false);
  useEffect(
    () => () => {
      if (deleted.current) void signedOutHere(client);
    },
    [client],
  );
  return useMutation({
    mutationFn: (input: DeletionInput) => data(api.POST('/api/v1/me/deletion', { body: input })),
    onSuccess: (answer) => {
      deleted.current = true;
      leave(answer);
    },
  });
}
