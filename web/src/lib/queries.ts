// The reads more than one feature uses or refreshes. Each factory builds its keys and fetches in
// one place; a feature's own reads have their factory in its api.ts. The reads a lesson page needs
// are also kept for offline use (lib/offline.ts): public ones in lp-api, the learner's own in
// lp-personal (emptied on sign-out).
import { queryOptions } from '@tanstack/react-query';
import { api, data } from './api';
import { offlineRead, PERSONAL_CACHE } from './offline';
import type { LeaderboardPeriod } from './types';

export const questQueries = {
  all: ['quest'] as const,
  list: () => queryOptions({ queryKey: ['quests'], ...offlineRead('/api/v1/quests/', () => data(api.GET('/api/v1/quests/'))) }),
  detail: (slug: string) =>
    queryOptions({
      queryKey: [...questQueries.all, slug],
      ...offlineRead(`/api/v1/quests/${encodeURIComponent(slug)}/`, () => data(api.GET('/api/v1/quests/{slug}/', { params: { path: { slug } } }))),
    }),
};

export const achievementQueries = {
  all: ['achievements'] as const,
  list: () =>
    queryOptions({
      queryKey: achievementQueries.all,
      // Whether each is unlocked, signed in: the learner's own.
      ...offlineRead('/api/v1/achievements/', () => data(api.GET('/api/v1/achievements/')), PERSONAL_CACHE),
    }),
};

export const progressQueries = {
  all: ['progress'] as const,
  /** The signed-in learner's header for a quest ('': the demo quest, the server's default). */
  summary: (quest: string) =>
    queryOptions({
      queryKey: [...progressQueries.all, quest],
      ...offlineRead(
        `/api/v1/me/progress${quest ? `?quest=${encodeURIComponent(quest)}` : ''}`,
        () => data(api.GET('/api/v1/me/progress', { params: { query: quest ? { quest } : {} } })),
        PERSONAL_CACHE,
      ),
    }),
  levels: () => queryOptions({ queryKey: ['levels'], ...offlineRead('/api/v1/levels/', () => data(api.GET('/api/v1/levels/'))), staleTime: 5 * 60_000 }),
  /** The signed-in learner's lessons with a check answered (done or not): the outline's "started". */
  started: () => queryOptions({ queryKey: [...progressQueries.all, 'me', 'started'], queryFn: () => data(api.GET('/api/v1/me/lessons/started')) }),
};

export const leaderboardQueries = {
  all: ['leaderboard'] as const,
  board: (period: LeaderboardPeriod) =>
    queryOptions({
      queryKey: [...leaderboardQueries.all, period],
      queryFn: () => data(api.GET('/api/v1/leaderboard', { params: { query: { period } } })),
    }),
};
