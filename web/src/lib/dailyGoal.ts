// The learner's daily goal: set from Settings and from the prompt after a first completion.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from './api';
import { progressQueries } from './queries';
import rules from './rules.json';
import type { GoalXp } from './types';

export type { GoalXp };
/** The goals the server accepts (PUT /me/daily-goal answers 400 to any other), from its rules. */
export const GOAL_CHOICES = rules.daily_goals as GoalXp[];

export function useSetDailyGoal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (xp: GoalXp | null) => data(api.PUT('/api/v1/me/daily-goal', { body: { xp } })),
    onSuccess: () => client.invalidateQueries({ queryKey: progressQueries.all }),
  });
}
