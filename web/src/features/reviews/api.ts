import { onlineManager, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, ApiError, data } from '@/lib/api';
import { offlineRead, PERSONAL_CACHE } from '@/lib/offline';
import { newId, type CheckAnswer } from '@/lib/progressStore';
import { progressQueries } from '@/lib/queries';
import { useAuth } from '@/lib/session';
import type { ReviewAnswerInput, ReviewResult } from '@/lib/types';
import { readReviews, recordReview, syncLocalReviews } from './store';

export const reviewQueries = {
  all: ['reviews'] as const,
  /** The due cards; kept for offline use, so a review can be answered with no network. */
  queue: () =>
    queryOptions({
      queryKey: [...reviewQueries.all, 'queue'],
      ...offlineRead('/api/v1/me/reviews', () => data(api.GET('/api/v1/me/reviews')), PERSONAL_CACHE),
    }),
  /** How many cards are due: the top bar's "5 to review" (one query on the server). */
  summary: () =>
    queryOptions({
      queryKey: [...reviewQueries.all, 'summary'],
      queryFn: () => data(api.GET('/api/v1/me/reviews/summary')),
      // Cards come due as time passes, not only when the learner does something.
      refetchInterval: 10 * 60_000,
    }),
};

/** A review answered: the server's grade and schedule, or kept on this device (no network). */
export type ReviewAnswered = { pending: false; result: ReviewResult } | { pending: true };

/**
 * Answers a due card. The server grades it with the lesson's rules and schedules it; with no
 * network the answer is kept on the device (store.ts) and graded at the next sync, as of now.
 */
export function useAnswerReview() {
  const client = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    // Tried offline too: with no network it is kept on the device rather than left waiting.
    networkMode: 'always',
    mutationFn: async ({ check, answer, durationMs }: { check: number; answer: CheckAnswer; durationMs: number }): Promise<ReviewAnswered> => {
      const body: ReviewAnswerInput = { answer, id: newId(), duration_ms: Math.round(durationMs) };
      try {
        const result = await data(api.POST('/api/v1/me/reviews/{check_id}/answers', { params: { path: { check_id: check } }, body }));
        return { pending: false, result };
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 0) || !user) throw error;
        recordReview(user.id, { check, answer, duration_ms: body.duration_ms ?? null, id: body.id });
        return { pending: true };
      }
    },
    onSuccess: async (answered) => {
      if (answered.pending) return;
      // Not the queue: the page answering it keeps the cards it started with.
      await client.invalidateQueries({ queryKey: reviewQueries.summary().queryKey });
      if (answered.result.xp_awarded > 0) await client.invalidateQueries({ queryKey: progressQueries.all });
    },
  });
}

/**
 * Sends the reviews this device kept offline (store.ts) on a page load that finds the learner
 * signed in, and whenever the network comes back; the header and the counts refetch after.
 */
export function useSyncReviewsWhenOnline(user: number | null) {
  const client = useQueryClient();
  useEffect(() => {
    if (user === null) return;
    const send = () => {
      if (!onlineManager.isOnline() || readReviews(user).length === 0) return;
      syncLocalReviews(user)
        .then(async (result) => {
          if (!result) return;
          await client.invalidateQueries({ queryKey: reviewQueries.summary().queryKey });
          await client.invalidateQueries({ queryKey: progressQueries.all });
        })
        .catch(() => undefined);
    };
    send();
    return onlineManager.subscribe((online) => {
      if (online) send();
    });
  }, [user, client]);
}
