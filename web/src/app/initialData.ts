import type { QueryClient } from '@tanstack/react-query';
import { lessonQueries } from '@/features/lessons/api';
import { whenIdle } from '@/lib/idle';
import { PERSONAL_CACHE, rememberForOffline } from '@/lib/offline';
import { achievementQueries, progressQueries, questQueries } from '@/lib/queries';
import { ensureConfig, SESSION_URL, sessionQuery, toAuthState } from '@/lib/session';
import type { AchievementList, LessonDetail, LevelCurve, QuestDetail, SessionState } from '@/lib/types';

/** The element the server puts a page's API answers in (learning_platform/web_app.py). */
export const INITIAL_DATA_ID = 'lp-initial-data';

/**
 * What the server embeds (pages/web.py): the API's answers for the page, each under its name.
 * A lesson page has its lesson and its quest's outline, a quest page its outline; for a
 * signed-out visitor also the session, the level curve and the achievements, which every page
 * reads at once.
 */
interface InitialData {
  lesson?: LessonDetail;
  quest?: QuestDetail;
  session?: SessionState;
  levels?: LevelCurve;
  achievements?: AchievementList;
}

/**
 * Puts the answers the server embedded into the query cache, under the keys the pages read,
 * before the first render: the page renders whole at once, and nothing is fetched again while
 * fresh (staleTime), so no answer arrives later to draw the page a second time. Read once: the
 * element is removed. The service worker never saw those answers go by, so they are also kept
 * for offline reading here (lib/offline.ts), once the page is idle: writing them out is a long
 * stretch of work on a phone, and the page needs none of it to show.
 */
export function seedInitialData(client: QueryClient, doc: Document = document): void {
  const element = doc.getElementById(INITIAL_DATA_ID);
  if (!element) return;
  element.remove();
  let data: InitialData;
  try {
    data = JSON.parse(element.textContent ?? '') as InitialData;
  } catch {
    return;
  }
  const offline: [url: string, answer: unknown, cacheName?: string][] = [];
  if (data.lesson) {
    client.setQueryData(lessonQueries.detail(data.lesson.slug).queryKey, data.lesson);
    offline.push([`/api/v1/lessons/${encodeURIComponent(data.lesson.slug)}/`, data.lesson]);
  }
  if (data.quest) {
    client.setQueryData(questQueries.detail(data.quest.slug).queryKey, data.quest);
    offline.push([`/api/v1/quests/${encodeURIComponent(data.quest.slug)}/`, data.quest]);
  }
  if (data.levels) {
    client.setQueryData(progressQueries.levels().queryKey, data.levels);
    offline.push(['/api/v1/levels/', data.levels]);
  }
  if (data.achievements) {
    client.setQueryData(achievementQueries.list().queryKey, data.achievements);
    offline.push(['/api/v1/achievements/', data.achievements, PERSONAL_CACHE]);
  }
  if (data.session) {
    client.setQueryData(sessionQuery.queryKey, toAuthState(data.session));
    offline.push([SESSION_URL, data.session, PERSONAL_CACHE]);
  }
  // One idle moment each: every write serialises its answer at once.
  for (const [url, answer, cacheName] of offline) whenIdle(() => void rememberForOffline(url, answer, cacheName));
  // Fetching the session also fetches allauth's config, which sets the CSRF cookie a signed-in
  // POST needs (lib/session.ts); with the session served, that read still happens, later.
  if (data.session) whenIdle(() => void ensureConfig(client).catch(() => undefined));
}
