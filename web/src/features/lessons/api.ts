import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { offlineRead } from '@/lib/offline';
import type { LessonDetail } from '@/lib/types';

export const lessonQueries = {
  detail: (slug: string) =>
    queryOptions({
      queryKey: ['lesson', slug],
      // Kept for offline reading (lib/offline.ts), also when the service worker did not see it.
      ...offlineRead(`/api/v1/lessons/${encodeURIComponent(slug)}/`, api<LessonDetail>),
    }),
};
