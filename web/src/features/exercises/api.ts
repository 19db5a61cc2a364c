import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, toPath } from '@/lib/api';
import type { ExerciseDetail, SubmissionAccepted, SubmissionDetail, SubmissionFormat } from '@/lib/types';

export function useExercise(id: number | undefined) {
  return useQuery({
    queryKey: ['exercise', id],
    queryFn: () => api<ExerciseDetail>(`exercises/${id}/`),
    enabled: id !== undefined,
  });
}

export interface SubmissionInput {
  format: SubmissionFormat;
  content: string;
  notes?: string;
}

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

/** Polls a submission until the worker has graded it (or found it invalid). */
export function useSubmission(pollPath: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: ['submission', pollPath],
    queryFn: async () => {
      const submission = await api<SubmissionDetail>(pollPath ?? '');
      if (!isPending(submission)) {
        void client.invalidateQueries({ queryKey: ['progress'] });
        void client.invalidateQueries({ queryKey: ['exercise'] });
      }
      return submission;
    },
    enabled: pollPath !== null,
    refetchInterval: (query) => (isPending(query.state.data) && !query.state.error ? POLL_INTERVAL_MS : false),
  });
}
