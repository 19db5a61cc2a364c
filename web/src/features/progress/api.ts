import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { computeLocalHeader, levelFor } from '@/lib/header';
import { recordCompletion, snapshot, useLocalEvents } from '@/lib/progressStore';
import { achievementQueries, progressQueries, questQueries } from '@/lib/queries';
import { useAuth } from '@/lib/session';
import type { Calendar, CompletionOutput, Level, ProgressSummary, QuestDetail } from '@/lib/types';

/** The signed-in learner's own progress page. Under progressQueries.all: a completion refreshes them. */
export const myProgressQueries = {
  /** Streak and daily goal (the same for every quest: the demo quest's summary). */
  overview: () => queryOptions({ queryKey: [...progressQueries.all, 'me', 'overview'], queryFn: () => api<ProgressSummary>('me/progress') }),
  /** The last 12 weeks of activity, days in the learner's time zone. */
  calendar: () => queryOptions({ queryKey: [...progressQueries.all, 'me', 'calendar'], queryFn: () => api<Calendar>('me/calendar') }),
};

/** The header's data: the server's when signed in, else computed from this device's events. */
export function useProgressHeader(questSlug: string | undefined) {
  const auth = useAuth();
  const signedIn = auth.isAuthenticated;
  const server = useQuery({ ...progressQueries.summary(questSlug ?? ''), enabled: Boolean(questSlug) && signedIn });
  const local = useLocalProgress(questSlug);
  if (auth.isPending) return { data: undefined, isPending: true, error: null, refetch: auth.refetch } as const;
  if (auth.isError) return { data: undefined, isPending: false, error: auth.error, refetch: auth.refetch } as const;
  return signedIn
    ? ({ data: server.data, isPending: server.isPending, error: server.error, refetch: server.refetch } as const)
    : local;
}

// Fetched while the session is still being checked, not after: they answer for anyone (the
// cookie goes along either way), and a signed-out header then needs no second round trip.
function useLocalProgress(questSlug: string | undefined) {
  const events = useLocalEvents();
  const levels = useQuery(progressQueries.levels());
  const quest = useQuery({ ...questQueries.detail(questSlug ?? ''), enabled: Boolean(questSlug) });
  const achievements = useQuery(achievementQueries.list());
  const error = levels.error ?? quest.error ?? achievements.error;
  const refetch = () => {
    void levels.refetch();
    void quest.refetch();
    void achievements.refetch();
  };
  if (!levels.data || !quest.data || !achievements.data) {
    return { data: undefined, isPending: !error, error, refetch } as const;
  }
  const data = computeLocalHeader({
    quest: quest.data.slug,
    lessons: quest.data.lessons,
    completed: events.map((event) => event.lesson),
    curve: levels.data.results,
    achievementsTotal: achievements.data.count,
  });
  return { data, isPending: false, error: null, refetch } as const;
}

export interface CompletionResult {
  alreadyDone: boolean;
  xpAwarded: number;
  levelUp: Level | null;
  achievements: CompletionOutput['new_achievements'];
}

/** Marks a lesson complete: on the server when signed in, on this device otherwise. */
export function useCompleteLesson(lessonSlug: string, lessonXp: number, questSlug: string) {
  const client = useQueryClient();
  const { isAuthenticated } = useAuth();
  return useMutation({
    mutationFn: async (): Promise<CompletionResult> => {
      if (isAuthenticated) {
        const answer = await api<CompletionOutput>(`lessons/${encodeURIComponent(lessonSlug)}/complete`, { method: 'POST' });
        return {
          alreadyDone: answer.xp_awarded === 0 && !answer.level_up && answer.new_achievements.length === 0,
          xpAwarded: answer.xp_awarded,
          levelUp: answer.level_up ? answer.level_after : null,
          achievements: answer.new_achievements,
        };
      }
      const header = client.getQueryData(progressQueries.levels().queryKey);
      const quest = client.getQueryData(questQueries.detail(questSlug).queryKey);
      const xpBefore = localXp(quest);
      const event = recordCompletion(lessonSlug);
      if (!event) return { alreadyDone: true, xpAwarded: 0, levelUp: null, achievements: [] };
      const curve = header?.results ?? [];
      const before = levelFor(xpBefore, curve).level;
      const after = levelFor(xpBefore + lessonXp, curve).level;
      return { alreadyDone: false, xpAwarded: lessonXp, levelUp: after.number > before.number ? after : null, achievements: [] };
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: progressQueries.all });
      await client.invalidateQueries({ queryKey: questQueries.all });
      await client.invalidateQueries({ queryKey: achievementQueries.all });
    },
  });
}

function localXp(quest: QuestDetail | undefined): number {
  if (!quest) return 0;
  const done = new Set(snapshot().map((event) => event.lesson));
  return quest.lessons.filter((lesson) => done.has(lesson.slug)).reduce((sum, lesson) => sum + lesson.xp, 0);
}
