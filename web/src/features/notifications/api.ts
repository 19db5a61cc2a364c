import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '@/lib/api';

export const notificationQueries = {
  all: ['notifications'] as const,
  page: (page: number) =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'list', page],
      queryFn: () => data(api.GET('/api/v1/me/notifications/', { params: { query: { page } } })),
    }),
  /** The top bar's unread count, refreshed every minute and on focus. */
  unreadCount: () =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'unread'],
      queryFn: async () => (await data(api.GET('/api/v1/me/notifications/', { params: { query: { unread: true, page_size: 1 } } }))).unread_count,
      refetchInterval: 60_000,
    }),
};

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => data(api.POST('/api/v1/me/notifications/{id}/read', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationQueries.all }),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.POST('/api/v1/me/notifications/read-all')),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationQueries.all }),
  });
}
