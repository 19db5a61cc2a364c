import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, toPath } from '@/lib/api';
import type { Comment, CommentInput, CommentPage, Subscription, Thread, ThreadPage } from '@/lib/types';

const lessonPath = (lesson: string) => `lessons/${encodeURIComponent(lesson)}`;

export const commentQueries = {
  threads: (lesson: string) =>
    infiniteQueryOptions({
      queryKey: ['comments', lesson],
      queryFn: ({ pageParam }) => api<ThreadPage>(pageParam),
      initialPageParam: `/api/v1/${lessonPath(lesson)}/comments/`, // the default order (oldest first): the server caches this page
      getNextPageParam: (page) => (page.next ? toPath(page.next) : undefined),
    }),
  replies: {
    all: ['replies'] as const,
    /** Every reply of a thread, page after page (the thread shows only the first few). */
    of: (thread: Thread) =>
      queryOptions({
        queryKey: [...commentQueries.replies.all, thread.id, thread.reply_count],
        queryFn: async () => {
          const replies: Comment[] = [];
          let next: string | null | undefined = `${toPath(thread.replies_url)}${thread.replies_url.includes('?') ? '&' : '?'}page_size=100`;
          while (next) {
            const page: CommentPage = await api<CommentPage>(next);
            replies.push(...page.results);
            next = page.next ? toPath(page.next) : null;
          }
          return replies;
        },
      }),
  },
  subscription: (lesson: string) =>
    queryOptions({ queryKey: ['subscription', lesson], queryFn: () => api<Subscription>(`${lessonPath(lesson)}/subscription`) }),
};

function useRefreshComments(lesson: string) {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: commentQueries.threads(lesson).queryKey });
    await client.invalidateQueries({ queryKey: commentQueries.replies.all });
    await client.invalidateQueries({ queryKey: commentQueries.subscription(lesson).queryKey });
  };
}

export function usePostComment(lesson: string) {
  const refresh = useRefreshComments(lesson);
  return useMutation({
    mutationFn: (input: CommentInput) => api<Comment>(`${lessonPath(lesson)}/comments/`, { method: 'POST', body: input }),
    onSuccess: refresh,
  });
}

export function useEditComment(lesson: string) {
  const refresh = useRefreshComments(lesson);
  return useMutation({
    mutationFn: (input: { id: number } & CommentInput) => api<Comment>(`comments/${input.id}/`, { method: 'PATCH', body: { body: input.body } }),
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

export function useSetSubscription(lesson: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (following: boolean) =>
      api<Subscription | null>(`${lessonPath(lesson)}/subscription`, { method: following ? 'PUT' : 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: commentQueries.subscription(lesson).queryKey }),
  });
}
