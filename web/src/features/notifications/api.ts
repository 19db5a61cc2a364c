import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { NotificationPage } from '@/lib/types';

export function useNotifications(page: number, enabled = true) {
  return useQuery({
    queryKey: ['notifications', 'list', page],
    queryFn: () => api<NotificationPage>(`me/notifications/?page=${page}`),
    enabled,
  });
}

/** The top bar's unread count, refreshed every minute and on focus. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: ['notifications', 'unread'],
    queryFn: async () => (await api<NotificationPage>('me/notifications/?unread=true&page_size=1')).unread_count,
    enabled,
    refetchInterval: 60_000,
  });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`me/notifications/${id}/read`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['notifications'] }),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ marked_read: number; unread_count: number }>('me/notifications/read-all', { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['notifications'] }),
  });
}
