import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data, errorFrom } from '@/lib/api';
import { claim, noteCompletion, ownerOf, withDescriptions } from '@/lib/celebrations';
import { readChecks, recordAnswer, recordCompletion, recordReveal, useLocalChecks, type CheckAnswer, type LocalChecks } from '@/lib/progressStore';
import { achievementQueries, progressQueries, questQueries } from '@/lib/queries';
import { useAuth } from '@/lib/session';
import type { CheckBlock, CheckResult, CheckStanding, LessonDetail } from '@/lib/types';

export const checkQueries = {
  all: ['checks'] as const,
  /** Where the signed-in learner stands with each of the lesson's checks. */
  standings: (slug: string) =>
    queryOptions({
      queryKey: [...checkQueries.all, slug],
      queryFn: () => data(api.GET('/api/v1/me/lessons/{slug}/checks', { params: { path: { slug } } })),
    }),
};

/** The lesson's checks by id: the server's standings signed in, this device's answers signed out. */
export type Standings = Map<number, CheckStanding>;

export function useStandings(slug: string, checks: CheckBlock[]): { standings: Standings; isPending: boolean } {
  const { isAuthenticated, isPending: sessionPending } = useAuth();
  const server = useQuery({ ...checkQueries.standings(slug), enabled: isAuthenticated && checks.length > 0 });
  const local = useLocalChecks();
  if (sessionPending) return { standings: new Map(), isPending: true };
  if (isAuthenticated) {
    return { standings: new Map((server.data?.checks ?? []).map((standing) => [standing.check, standing])), isPending: server.isPending };
  }
  return { standings: localStandings(local, checks), isPending: false };
}

/** Standings as the server would count them, from the answers this device kept (oldest first). */
export function localStandings(local: LocalChecks, checks: Pick<CheckBlock, 'id' | 'check'>[]): Standings {
  const standings: Standings = new Map();
  for (const { id, check } of checks) {
    const answers = local.answers.filter((answer) => answer.check === id).sort((a, b) => a.answered_at.localeCompare(b.answered_at));
    const wrong = answers.filter((answer) => !answer.correct).length;
    const passed = answers.some((answer) => answer.correct);
    standings.set(id, {
      check: id,
      tries: answers.length,
      wrong_tries: wrong,
      passed,
      passed_first_try: Boolean(answers[0]?.correct && !answers[0].revealed),
      revealed: local.revealed.includes(id) || answers.some((answer) => answer.revealed),
      can_reveal: !passed && wrong >= check.reveal_after,
      // Paid by the server at the sync; nothing is paid on the device.
      xp_awarded: 0,
    });
  }
  return standings;
}

/** An answer graded: the server's result (signed out, with this device's count of tries) and what it did to the lesson. */
export interface Answered {
  result: CheckResult;
  /** This answer completed the lesson (signed out: on this device). */
  completedNow: boolean;
}

/**
 * Answers a check. Signed in, the server records it and pays; signed out it only grades it, and
 * the device keeps the answer for the sign-in's sync and completes the lesson on the device once
 * all its checks are passed. A lesson with a table exercise is completed by the server only, as
 * the exercise is (it needs an account). An unreadable answer (400) is an error, not a try.
 * `early`: the server's reply to this answer, sent by index.html before the app ran.
 */
export function useAnswerCheck(lesson: Pick<LessonDetail, 'slug' | 'exercise'>, checks: CheckBlock[], checkId: number) {
  const { slug } = lesson;
  const client = useQueryClient();
  const { isAuthenticated, user } = useAuth();
  return useMutation({
    mutationFn: async ({ answer, early }: { answer: CheckAnswer; early?: Promise<Response> }): Promise<Answered> => {
      const result =
        (early && (await earlyResult(early))) ?? (await data(api.POST('/api/v1/checks/{check_id}/answers', { params: { path: { check_id: checkId } }, body: { answer } })));
      if (isAuthenticated) {
        return { result, completedNow: Boolean(result.lesson?.completed_now) };
      }
      recordAnswer({ check: checkId, lesson: slug, answer, correct: result.correct });
      const standings = localStandings(readChecks(), checks);
      const standing = standings.get(checkId);
      const allPassed = [...standings.values()].every((each) => each.passed);
      const completedNow = result.correct && allPassed && !lesson.exercise && recordCompletion(slug) !== null;
      return {
        result: {
          ...result,
          tries: standing?.tries ?? 0,
          wrong_tries: standing?.wrong_tries ?? 0,
          passed: standing?.passed ?? result.correct,
          revealed: standing?.revealed ?? false,
          can_reveal: standing?.can_reveal ?? false,
        },
        completedNow,
      };
    },
    onSuccess: async ({ result, completedNow }) => {
      if (!isAuthenticated) return;
      client.setQueryData(checkQueries.standings(slug).queryKey, (before) => before && { ...before, checks: withResult(before.checks, checkId, result) });
      const described = client.getQueryData(achievementQueries.list().queryKey)?.results ?? [];
      claim(ownerOf(user?.id), { achievements: withDescriptions(result.new_achievements, described) });
      if (completedNow) noteCompletion();
      await client.invalidateQueries({ queryKey: progressQueries.all });
      if (completedNow) await client.invalidateQueries({ queryKey: questQueries.all });
      if (result.new_achievements.length) await client.invalidateQueries({ queryKey: achievementQueries.all });
    },
  });
}

/**
 * The reply to an answer index.html sent before the app ran: its result, its 400 as the same
 * error, or null when the answer was not taken (no reply, CSRF refused, throttled, a server
 * error) and the app sends it again.
 */
async function earlyResult(sent: Promise<Response>): Promise<CheckResult | null> {
  const response = await sent.catch(() => null);
  if (response?.status === 400) throw await errorFrom(response);
  return response?.ok ? ((await response.json()) as CheckResult) : null;
}

function withResult(standings: CheckStanding[], checkId: number, result: CheckResult): CheckStanding[] {
  const before = standings.find((standing) => standing.check === checkId);
  const after: CheckStanding = {
    check: checkId,
    tries: result.tries,
    wrong_tries: result.wrong_tries,
    passed: result.passed,
    passed_first_try: before?.passed ? before.passed_first_try : result.correct && result.tries === 1 && !result.revealed,
    revealed: result.revealed,
    can_reveal: result.can_reveal,
    xp_awarded: (before?.xp_awarded ?? 0) + result.xp_awarded,
  };
  return before ? standings.map((standing) => (standing.check === checkId ? after : standing)) : [...standings, after];
}

/** Shows a check's answer: its later right answer passes it without XP (signed out, the device marks the answers it keeps). */
export function useRevealCheck(slug: string, checkId: number) {
  const client = useQueryClient();
  const { isAuthenticated } = useAuth();
  return useMutation({
    mutationFn: async () => {
      const reveal = await data(api.POST('/api/v1/checks/{check_id}/reveal', { params: { path: { check_id: checkId } } }));
      if (!isAuthenticated) recordReveal(checkId);
      return reveal;
    },
    onSuccess: () => {
      if (!isAuthenticated) return;
      client.setQueryData(checkQueries.standings(slug).queryKey, (before) =>
        before && {
          ...before,
          checks: before.checks.map((standing) => (standing.check === checkId && !standing.passed ? { ...standing, revealed: true } : standing)),
        },
      );
    },
  });
}
