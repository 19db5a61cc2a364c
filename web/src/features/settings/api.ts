import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endSessions, listSessions } from '@/lib/allauth';
import { leaderboardQueries } from '@/lib/queries';
import { AUTH_ROOT, sessionQuery } from '@/lib/session';
import type { Profile, ProfileInput } from '@/lib/types';

export const settingsQueries = {
  profile: () => queryOptions({ queryKey: ['me'], queryFn: () => api<Profile>('me/') }),
  /** The learner's signed-in devices (allauth's sessions). */
  sessions: () => queryOptions({ queryKey: [AUTH_ROOT, 'sessions'], queryFn: listSessions }),
};

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => api<Profile>('me/', { method: 'PATCH', body: input }),
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
