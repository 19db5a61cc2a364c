import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useAuth } from '@/features/auth/api';
import { api } from '@/lib/api';
import { computeLocalHeader, levelFor } from '@/lib/header';
import { recordCompletion, snapshot, subscribe } from '@/lib/progressStore';
import type { AchievementList, CompletionOutput, LevelCurve, ProgressSummary, QuestDetail } from '@/lib/types';

export function useLocalEvents() {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

export function useLevels() {
  return useQuery({ queryKey: ['levels'], queryFn: () => api<LevelCurve>('levels/'), staleTime: 5 * 60_000 });
}

export function useQuest(slug: string | undefined) {
  return useQuery({
    queryKey: ['quest', slug],
    queryFn: () => api<QuestDetail>(`quests/${encodeURIComponent(slug ?? '')}/`),
    enabled: Boolean(slug),
  });
}

export function useAchievements() {
  return useQuery({ queryKey: ['achievements'], queryFn: () => api<AchievementList>('achievements/') });
}

/** The header's data: the server's when signed in, else computed from this device's events. */
export function useProgressHeader(questSlug: string | undefined) {
  const auth = useAuth();
  const signedIn = auth.isAuthenticated;
  const server = useQuery({
    queryKey: ['progress', questSlug],
    queryFn: () => api<ProgressSummary>(`me/progress?quest=${encodeURIComponent(questSlug ?? '')}`),
    enabled: Boolean(questSlug) && signedIn,
  });
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
  const levels = useLevels();
  const quest = useQuest(questSlug);
  const achievements = useAchievements();
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
  levelUp: { number: number; name: string } | null;
  achievements: { title: string; xp_bonus: number }[];
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
      const header = client.getQueryData<LevelCurve>(['levels']);
      const quest = client.getQueryData<QuestDetail>(['quest', questSlug]);
      const xpBefore = localXp(quest);
      const event = recordCompletion(lessonSlug);
      if (!event) return { alreadyDone: true, xpAwarded: 0, levelUp: null, achievements: [] };
      const curve = header?.results ?? [];
      const before = levelFor(xpBefore, curve).level;
      const after = levelFor(xpBefore + lessonXp, curve).level;
      return { alreadyDone: false, xpAwarded: lessonXp, levelUp: after.number > before.number ? after : null, achievements: [] };
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['progress'] });
      await client.invalidateQueries({ queryKey: ['quest'] });
      await client.invalidateQueries({ queryKey: ['achievements'] });
    },
  });
}

function localXp(quest: QuestDetail | undefined): number {
  if (!quest) return 0;
  const done = new Set(snapshot().map((event) => event.lesson));
  return quest.lessons.filter((lesson) => done.has(lesson.slug)).reduce((sum, lesson) => sum + lesson.xp, 0);
}
