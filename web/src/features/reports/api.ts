import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data, nextPage } from '@/lib/api';
import type { ReportInput, ReportKind, ReportStatus } from '@/lib/types';

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
      queryFn: ({ pageParam }) => data(api.GET('/api/v1/me/reports/', { params: { query: { page: pageParam } } })),
      initialPageParam: undefined as number | undefined,
      getNextPageParam: (page) => nextPage(page.next),
    }),
};

export function useReportIssue(lesson: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReportInput) => data(api.POST('/api/v1/lessons/{slug}/reports/', { params: { path: { slug: lesson } }, body: input })),
    onSuccess: () => client.invalidateQueries({ queryKey: reportQueries.mine().queryKey }),
  });
}
