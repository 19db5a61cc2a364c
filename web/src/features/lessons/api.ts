import { queryOptions } from '@tanstack/react-query';
import { api, data } from '@/lib/api';
import { offlineRead } from '@/lib/offline';

export const lessonQueries = {
  detail: (slug: string) =>
    queryOptions({
      queryKey: ['lesson', slug],
      // Kept for offline reading (lib/offline.ts), also when the service worker did not see it.
      ...offlineRead(`/api/v1/lessons/${encodeURIComponent(slug)}/`, () =>
        data(api.GET('/api/v1/lessons/{slug}/', { params: { path: { slug } } })),
      ),
    }),
};
