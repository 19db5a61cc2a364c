import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '@/lib/api';
import { progressQueries } from '@/lib/queries';
import type { SubmissionDetail, SubmissionInput } from '@/lib/types';

/** How many of the learner's attempts the history shows (newest first). */
export const ATTEMPTS_SHOWN = 20;

const submissionKey = (id: number) => ['submission', id] as const;

export const exerciseQueries = {
  all: ['exercise'] as const,
  detail: (id: number) => queryOptions({ queryKey: [...exerciseQueries.all, id], queryFn: () => data(api.GET('/api/v1/exercises/{exercise_id}/', { params: { path: { exercise_id: id } } })) }),
  /** The learner's attempts, newest first, each with its feedback once graded. */
  attempts: (id: number) =>
    queryOptions({
      queryKey: [...exerciseQueries.all, id, 'attempts'],
      queryFn: () =>
        data(api.GET('/api/v1/exercises/{exercise_id}/submissions/', { params: { path: { exercise_id: id }, query: { page_size: ATTEMPTS_SHOWN } } })),
    }),
  /** One attempt with its content and feedback; polled while the worker grades it, then `onGraded`. */
  submission: (id: number, onGraded: () => void) =>
    queryOptions({
      queryKey: submissionKey(id),
      queryFn: async ({ client, queryKey }) => {
        const before = client.getQueryData<SubmissionDetail>(queryKey);
        const submission = await data(api.GET('/api/v1/submissions/{submission_id}/', { params: { path: { submission_id: id } } }));
        if (before && isPending(before) && !isPending(submission)) onGraded();
        return submission;
      },
      refetchInterval: (query) => (isPending(query.state.data) && !query.state.error ? POLL_INTERVAL_MS : false),
    }),
};

/** POST answers 202 at once; the attempt is then `queued` until a worker grades it. */
export function useSubmitTable(exerciseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SubmissionInput) =>
      data(api.POST('/api/v1/exercises/{exercise_id}/submissions/', { params: { path: { exercise_id: exerciseId } }, body: input })),
    onSuccess: (accepted, input) => {
      // Known as queued from the start, so its grading is noticed however fast the worker is.
      const queued = { ...accepted, ...input, status: 'queued', score: null, feedback: null } as unknown as SubmissionDetail;
      client.setQueryData(submissionKey(accepted.id), queued);
    },
  });
}

const PENDING = new Set(['queued', 'grading']);
export const POLL_INTERVAL_MS = 700;

export function isPending(submission: Pick<SubmissionDetail, 'status'> | undefined): boolean {
  return !submission || PENDING.has(submission.status ?? 'queued');
}

/** An attempt (none while null); once graded, the learner's XP, the exercise and its attempts refresh. */
export function useSubmission(id: number | null) {
  const client = useQueryClient();
  const onGraded = () => {
    void client.invalidateQueries({ queryKey: progressQueries.all });
    void client.invalidateQueries({ queryKey: exerciseQueries.all });
  };
  return useQuery({ ...exerciseQueries.submission(id ?? 0, onGraded), enabled: id !== null });
}
