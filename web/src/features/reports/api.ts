import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, toPath } from '@/lib/api';
import type { ReportInput, ReportKind, ReportPage, ReportStatus } from '@/lib/types';

export const KINDS: { value: ReportKind; label: string }[] = [
  { value: 'typo', label: 'Typo' },
  { value: 'incorrect', label: 'Something is incorrect' },
  { value: 'broken_link', label: 'Broken link' },
  { value: 'unclear', label: 'Unclear' },
  { value: 'other', label: 'Other' },
];

/** A report's state in the words a reporter reads. */
export const STATUSES: Record<ReportStatus, string> = {
  new: 'Received',
  triaged: 'Being looked at',
  resolved: 'Resolved',
  rejected: 'Not changed',
};

export const reportQueries = {
  /** The learner's own reports, newest first, page after page. */
  mine: () =>
    infiniteQueryOptions({
      queryKey: ['reports', 'mine'],
      queryFn: ({ pageParam }) => api<ReportPage>(pageParam),
      initialPageParam: '/api/v1/me/reports/',
      getNextPageParam: (page) => (page.next ? toPath(page.next) : undefined),
    }),
};

export function useReportIssue(lesson: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReportInput) => api<unknown>(`lessons/${encodeURIComponent(lesson)}/reports/`, { method: 'POST', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: reportQueries.mine().queryKey }),
  });
}
