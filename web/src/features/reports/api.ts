import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ReportInput } from '@/lib/types';

export function useReportIssue(lesson: string) {
  return useMutation({
    mutationFn: (input: ReportInput) => api<unknown>(`lessons/${encodeURIComponent(lesson)}/reports/`, { method: 'POST', body: input }),
  });
}
