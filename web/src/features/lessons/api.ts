import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { LessonDetail } from '@/lib/types';

export function useLesson(slug: string | undefined) {
  return useQuery({
    queryKey: ['lesson', slug],
    queryFn: () => api<LessonDetail>(`lessons/${encodeURIComponent(slug ?? '')}/`),
    enabled: Boolean(slug),
  });
}
