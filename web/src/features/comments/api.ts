import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data, nextPage } from '@/lib/api';
import type { Comment, CommentInput, Thread } from '@/lib/types';

const onLesson = (lesson: string) => ({ params: { path: { slug: lesson } } });

export const commentQueries = {
  threads: (lesson: string) =>
    infiniteQueryOptions({
      queryKey: ['comments', lesson],
      queryFn: ({ pageParam }) => data(api.GET('/api/v1/lessons/{slug}/comments/', { params: { path: { slug: lesson }, query: { page: pageParam } } })),
      // No page number at first, the default order (oldest first): the server caches that page.
      initialPageParam: undefined as number | undefined,
      getNextPageParam: (page) => nextPage(page.next),
    }),
  replies: {
    all: ['replies'] as const,
    /** Every reply of a thread, page after page (the thread shows only the first few). */
    of: (thread: Thread) =>
      queryOptions({
        queryKey: [...commentQueries.replies.all, thread.id, thread.reply_count],
        queryFn: async () => {
          const replies: Comment[] = [];
          for (let page: number | undefined = 1; page !== undefined; ) {
            const answer = await data(api.GET('/api/v1/comments/{id}/replies/', { params: { path: { id: thread.id }, query: { page, page_size: 100 } } }));
            replies.push(...answer.results);
            page = nextPage(answer.next);
          }
          return replies;
        },
      }),
  },
  subscription: (lesson: string) =>
    queryOptions({ queryKey: ['subscription', lesson], queryFn: () => data(api.GET('/api/v1/lessons/{slug}/subscription', onLesson(lesson))) }),
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
    mutationFn: (input: CommentInput) => data(api.POST('/api/v1/lessons/{slug}/comments/', { ...onLesson(lesson), body: input })),
    onSuccess: refresh,
  });
}

export function useEditComment(lesson: string) {
  const refresh = useRefreshComments(lesson);
  return useMutation({
    mutationFn: (input: { id: number } & CommentInput) =>
      data(api.PATCH('/api/v1/comments/{id}/', { params: { path: { id: input.id } }, body: { body: input.body } })),
    onSuccess: refresh,
  });
}

export function useDeleteComment(lesson: string) {
  const refresh = useRefreshComments(lesson);
  return useMutation({
    mutationFn: (id: number) => data(api.DELETE('/api/v1/comments/{id}/', { params: { path: { id } } })),
    onSuccess: refresh,
  });
}

export function useSetSubscription(lesson: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (following: boolean) =>
      data(following ? api.PUT('/api/v1/lessons/{slug}/subscription', onLesson(lesson)) : api.DELETE('/api/v1/lessons/{slug}/subscription', onLesson(lesson))),
    onSuccess: () => client.invalidateQueries({ queryKey: commentQueries.subscription(lesson).queryKey }),
  });
}
