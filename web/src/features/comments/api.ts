import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, toPath } from '@/lib/api';
import type { Comment, Paginated, Subscription, Thread } from '@/lib/types';

const threadsKey = (lesson: string) => ['comments', lesson] as const;

export function useThreads(lesson: string) {
  return useInfiniteQuery({
    queryKey: threadsKey(lesson),
    queryFn: ({ pageParam }) => api<Paginated<Thread>>(pageParam),
    initialPageParam: `/api/v1/lessons/${encodeURIComponent(lesson)}/comments/`, // the default order (oldest first): the server caches this page
    getNextPageParam: (page) => (page.next ? toPath(page.next) : undefined),
  });
}

export function useAllReplies(thread: Thread, enabled: boolean) {
  return useQuery({
    queryKey: ['replies', thread.id, thread.reply_count],
    queryFn: async () => {
      const replies: Comment[] = [];
      let next: string | null | undefined = `${toPath(thread.replies_url)}${thread.replies_url.includes('?') ? '&' : '?'}page_size=100`;
      while (next) {
        const page: Paginated<Comment> = await api<Paginated<Comment>>(next);
        replies.push(...page.results);
        next = page.next ? toPath(page.next) : null;
      }
      return replies;
    },
    enabled,
  });
}

function useRefreshComments(lesson: string) {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: threadsKey(lesson) });
    await client.invalidateQueries({ queryKey: ['replies'] });
    await client.invalidateQueries({ queryKey: ['subscription', lesson] });
  };
}

export function usePostComment(lesson: string) {
  const refresh = useRefreshComments(lesson);
  return useMutation({
    mutationFn: (input: { body: string; parent?: number }) =>
      api<Comment>(`lessons/${encodeURIComponent(lesson)}/comments/`, { method: 'POST', body: input }),
    onSuccess: refresh,
  });
}

export function useEditComment(lesson: string) {
  const refresh = useRefreshComments(lesson);
  return useMutation({
    mutationFn: (input: { id: number; body: string }) => api<Comment>(`comments/${input.id}/`, { method: 'PATCH', body: { body: input.body } }),
    onSuccess: refresh,
  });
}

export function useDeleteComment(lesson: string) {
  const refresh = useRefreshComments(lesson);
  return useMutation({
    mutationFn: (id: number) => api<null>(`comments/${id}/`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

export function useSubscription(lesson: string, enabled: boolean) {
  return useQuery({
    queryKey: ['subscription', lesson],
    queryFn: () => api<Subscription>(`lessons/${encodeURIComponent(lesson)}/subscription`),
    enabled,
  });
}

export function useSetSubscription(lesson: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (following: boolean) =>
      api<Subscription | null>(`lessons/${encodeURIComponent(lesson)}/subscription`, { method: following ? 'PUT' : 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['subscription', lesson] }),
  });
}
