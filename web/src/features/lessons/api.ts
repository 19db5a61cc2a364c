import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { LessonDetail } from '@/lib/types';

export const lessonQueries = {
  detail: (slug: string) =>
    queryOptions({ queryKey: ['lesson', slug], queryFn: () => api<LessonDetail>(`lessons/${encodeURIComponent(slug)}/`) }),
};
