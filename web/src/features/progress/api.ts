import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, data } from '@/lib/api';
import { claim, noteCompletion, ownerOf, withDescriptions } from '@/lib/celebrations';
import { computeLocalDay, computeLocalHeader, levelFor } from '@/lib/header';
import { recordCompletion, snapshot, useLocalEvents } from '@/lib/progressStore';
import { achievementQueries, progressQueries, questQueries } from '@/lib/queries';
import { useAuth } from '@/lib/session';
import type { CompletionOutput, DailyGoal, Level, NextLevel, QuestDetail, Streak } from '@/lib/types';

/** The signed-in learner's own progress page. Under progressQueries.all: a completion refreshes them. */
export const myProgressQueries = {
  /** Streak and daily goal (the same for every quest): the top bar's summary off a quest page. */
  overview: () => progressQueries.summary(''),
  /** The last 12 weeks of activity, each award on the learner's day stored when it was paid. */
  calendar: () => queryOptions({ queryKey: [...progressQueries.all, 'me', 'calendar'], queryFn: () => data(api.GET('/api/v1/me/calendar')) }),
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

export interface GameState {
  signedIn: boolean;
  level: Level;
  xp: number;
  xpToGo: number;
  nextLevel: NextLevel | null;
  /** Signed out: a plain run of days with a completion on this device. */
  streak: Pick<Streak, 'current' | 'today'>;
  xpToday: number;
  /** Null signed out: a goal is an account setting. */
  goal: DailyGoal | null;
}

/**
 * The top bar's level, XP, streak and goal. Signed in from /me/progress for `quest` (the same
 * query as the lesson header's, so a lesson page fetches it once; '' is the demo quest); signed
 * out from this device's events. `ready` false: the quest is still being found out.
 */
export function useGameState(quest: string, ready: boolean): GameState | undefined {
  const auth = useAuth();
  const signedIn = auth.isAuthenticated;
  const server = useQuery({
    ...progressQueries.summary(quest),
    enabled: ready && signedIn,
    // Between pages the bar keeps what it showed rather than blinking empty.
    placeholderData: keepPreviousData,
  });
  const local = useLocalGame(quest, ready && !auth.isPending && !signedIn);
  if (auth.isPending) return undefined;
  if (!signedIn) return local;
  const data = server.data;
  if (!data) return undefined;
  return {
    signedIn: true,
    level: data.level,
    xp: data.xp,
    xpToGo: data.xp_to_go,
    nextLevel: data.next_level,
    streak: data.streak,
    xpToday: data.daily_goal.xp_today,
    goal: data.daily_goal,
  };
}

function useLocalGame(quest: string, enabled: boolean): GameState | undefined {
  const events = useLocalEvents();
  const quests = useQuery({ ...questQueries.list(), enabled: enabled && !quest });
  const slug = quest || quests.data?.results[0]?.slug || '';
  const detail = useQuery({ ...questQueries.detail(slug), enabled: enabled && Boolean(slug), placeholderData: keepPreviousData });
  const levels = useQuery({ ...progressQueries.levels(), enabled });
  if (!enabled || !detail.data || !levels.data) return undefined;
  const lessons = detail.data.lessons;
  const header = computeLocalHeader({
    quest: detail.data.slug,
    lessons,
    completed: events.map((event) => event.lesson),
    curve: levels.data.results,
    achievementsTotal: 0,
  });
  const day = computeLocalDay(events, new Map(lessons.map((lesson) => [lesson.slug, lesson.xp])));
  return {
    signedIn: false,
    level: header.level,
    xp: header.xp,
    xpToGo: header.xp_to_go,
    nextLevel: header.next_level,
    streak: { current: day.streak, today: day.today },
    xpToday: day.xpToday,
    goal: null,
  };
}

export interface CompletionResult {
  alreadyDone: boolean;
  xpAwarded: number;
  /** The learner's XP after it. */
  xp: number;
  levelUp: Level | null;
  achievements: CompletionOutput['new_achievements'];
  /** Signed in but offline: kept on this device, sent when the network is back. */
  pending: boolean;
}

/** Marks a lesson complete: on the server when signed in, on this device otherwise. */
export function useCompleteLesson(lessonSlug: string, lessonXp: number, questSlug: string) {
  const client = useQueryClient();
  const { isAuthenticated, user } = useAuth();
  return useMutation({
    // Tried offline too: with no network it is kept on the device rather than left waiting.
    networkMode: 'always',
    mutationFn: async (): Promise<CompletionResult> => {
      if (isAuthenticated) {
        let answer: CompletionOutput;
        try {
          answer = await data(api.POST('/api/v1/lessons/{slug}/complete', { params: { path: { slug: lessonSlug } } }));
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 0)) throw error;
          // No network: the completion waits on the device as a sync event (the same the
          // signed-out learner keeps); Layout sends it when the network is back.
          const xp = client.getQueryData(progressQueries.summary(questSlug).queryKey)?.xp ?? 0;
          const event = recordCompletion(lessonSlug);
          return { alreadyDone: !event, xpAwarded: event ? lessonXp : 0, xp: xp + (event ? lessonXp : 0), levelUp: null, achievements: [], pending: true };
        }
        return {
          alreadyDone: answer.xp_awarded === 0 && !answer.level_up && answer.new_achievements.length === 0,
          xpAwarded: answer.xp_awarded,
          xp: answer.xp,
          levelUp: answer.level_up ? answer.level_after : null,
          achievements: answer.new_achievements,
          pending: false,
        };
      }
      const header = client.getQueryData(progressQueries.levels().queryKey);
      const quest = client.getQueryData(questQueries.detail(questSlug).queryKey);
      const xpBefore = localXp(quest);
      const event = recordCompletion(lessonSlug);
      if (!event) return { alreadyDone: true, xpAwarded: 0, xp: xpBefore, levelUp: null, achievements: [], pending: false };
      const curve = header?.results ?? [];
      const before = levelFor(xpBefore, curve).level;
      const after = levelFor(xpBefore + lessonXp, curve).level;
      return {
        alreadyDone: false,
        xpAwarded: lessonXp,
        xp: xpBefore + lessonXp,
        levelUp: after.number > before.number ? after : null,
        achievements: [],
        pending: false,
      };
    },
    onSuccess: async (result) => {
      // Celebrated from the answer, before the refetches: the dialog opens without waiting.
      const described = client.getQueryData(achievementQueries.list().queryKey)?.results ?? [];
      claim(ownerOf(isAuthenticated ? user?.id : null), {
        levelUp: result.levelUp ? { level: result.levelUp, xp: result.xp } : null,
        achievements: withDescriptions(result.achievements, described),
      });
      if (isAuthenticated && !result.alreadyDone && !result.pending) noteCompletion();
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
