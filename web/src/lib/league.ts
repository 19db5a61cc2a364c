// The learner's weekly league (GET /me/league) and whether they take part (PUT
// /me/league/participation): the league page shows and rejoins it, Settings toggles it.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from './api';

export const leagueQueries = {
  all: ['league'] as const,
  mine: () => queryOptions({ queryKey: [...leagueQueries.all, 'me'], queryFn: () => data(api.GET('/api/v1/me/league')) }),
};

/** Leaves the leagues (`false`) or joins them again (`true`); the league is read again after. */
export function useSetParticipation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (participating: boolean) => data(api.PUT('/api/v1/me/league/participation', { body: { participating } })),
    onSuccess: ({ participating }) => {
      // The answer says where the learner stands at once; the rest (placement, the list) is read again.
      client.setQueryData(leagueQueries.mine().queryKey, (league) => (league ? { ...league, participating } : league));
      return client.invalidateQueries({ queryKey: leagueQueries.all });
    },
  });
}
