import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { NotificationPage, ReadAll } from '@/lib/types';

export const notificationQueries = {
  all: ['notifications'] as const,
  page: (page: number) =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'list', page],
      queryFn: () => api<NotificationPage>(`me/notifications/?page=${page}`),
    }),
  /** The top bar's unread count, refreshed every minute and on focus. */
  unreadCount: () =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'unread'],
      queryFn: async () => (await api<NotificationPage>('me/notifications/?unread=true&page_size=1')).unread_count,
      refetchInterval: 60_000,
    }),
};

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`me/notifications/${id}/read`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationQueries.all }),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<ReadAll>('me/notifications/read-all', { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationQueries.all }),
  });
}
