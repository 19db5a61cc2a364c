// The signed-in learner's profile (GET/PATCH /api/v1/me/): Settings edits it, the leaderboard's
// invitation to choose a name reads and edits it too, the league page says how others see the
// learner, so its key and writes live here.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from './api';
import { leagueQueries } from './league';
import { leaderboardQueries } from './queries';
import { sessionQuery } from './session';
import type { ProfileInput } from './types';

export const profileQuery = () => queryOptions({ queryKey: ['me'], queryFn: () => data(api.GET('/api/v1/me/')) });

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => data(api.PATCH('/api/v1/me/', { body: input })),
    onSuccess: (profile) => {
      client.setQueryData(profileQuery().queryKey, profile);
      // Every time on screen follows the learner's zone at once.
      client.setQueryData(sessionQuery.queryKey, (state) => (state ? { ...state, timeZone: profile.time_zone } : state));
      // The boards and the league show the learner's public name.
      void client.invalidateQueries({ queryKey: leaderboardQueries.all });
      void client.invalidateQueries({ queryKey: leagueQueries.all });
    },
  });
}

/** Records on the account that the invitation to choose a name was shown (idempotent). */
export function useMarkNameInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.POST('/api/v1/me/name-invitation')),
    onSuccess: (profile) => client.setQueryData(profileQuery().queryKey, profile),
  });
}
