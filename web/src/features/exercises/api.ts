import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, toPath } from '@/lib/api';
import { progressQueries } from '@/lib/queries';
import type { ExerciseDetail, SubmissionAccepted, SubmissionDetail, SubmissionInput } from '@/lib/types';

export const exerciseQueries = {
  all: ['exercise'] as const,
  detail: (id: number) => queryOptions({ queryKey: [...exerciseQueries.all, id], queryFn: () => api<ExerciseDetail>(`exercises/${id}/`) }),
  /** Polls a submission until the worker has graded it (or found it invalid), then calls `onGraded`. */
  submission: (pollPath: string, onGraded: () => void) =>
    queryOptions({
      queryKey: ['submission', pollPath],
      queryFn: async () => {
        const submission = await api<SubmissionDetail>(pollPath);
        if (!isPending(submission)) onGraded();
        return submission;
      },
      refetchInterval: (query) => (isPending(query.state.data) && !query.state.error ? POLL_INTERVAL_MS : false),
    }),
};

/** POST answers 202 with the submission's `url` to poll (the documented path when absent). */
export function useSubmitTable(exerciseId: number) {
  return useMutation({
    mutationFn: async (input: SubmissionInput) => {
      const accepted = await api<SubmissionAccepted>(`exercises/${exerciseId}/submissions/`, { method: 'POST', body: input });
      return { ...accepted, poll: accepted.url ? toPath(accepted.url) : `/api/v1/submissions/${accepted.id}/` };
    },
  });
}

const PENDING = new Set(['queued', 'grading']);
export const POLL_INTERVAL_MS = 700;

export function isPending(submission: SubmissionDetail | undefined): boolean {
  return !submission || PENDING.has(submission.status ?? 'queued');
}

/** The submission at `pollPath` (none while null); once graded, the learner's XP and the exercise refresh. */
export function useSubmission(pollPath: string | null) {
  const client = useQueryClient();
  const onGraded = () => {
    void client.invalidateQueries({ queryKey: progressQueries.all });
    void client.invalidateQueries({ queryKey: exerciseQueries.all });
  };
  return useQuery({ ...exerciseQueries.submission(pollPath ?? '', onGraded), enabled: pollPath !== null });
}
