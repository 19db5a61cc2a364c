import type { QueryClient } from '@tanstack/react-query';
import { lessonQueries } from '@/features/lessons/api';
import { whenIdle } from '@/lib/idle';
import { rememberForOffline } from '@/lib/offline';
import { questQueries } from '@/lib/queries';
import type { LessonDetail, QuestDetail } from '@/lib/types';

/** The element the server puts a page's API answer in (learning_platform/web_app.py). */
export const INITIAL_DATA_ID = 'lp-initial-data';

/** What the server embeds: the API's answer for the page, under the page's kind (pages/web.py). */
interface InitialData {
  lesson?: LessonDetail;
  quest?: QuestDetail;
}

/**
 * Puts the page's data the server embedded into the query cache, under the keys the pages read,
 * before the first render: the lesson or quest renders at once, and is not fetched again while
 * fresh (staleTime). Read once: the element is removed. The service worker never saw that data go
 * by, so it is also kept for offline reading here (lib/offline.ts), once the page is idle: writing
 * it out again is a long stretch of work on a phone, and the page needs none of it to show.
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
  if (data.lesson) {
    client.setQueryData(lessonQueries.detail(data.lesson.slug).queryKey, data.lesson);
    const { lesson } = data;
    whenIdle(() => void rememberForOffline(`/api/v1/lessons/${encodeURIComponent(lesson.slug)}/`, lesson));
  }
  if (data.quest) {
    client.setQueryData(questQueries.detail(data.quest.slug).queryKey, data.quest);
    const { quest } = data;
    whenIdle(() => void rememberForOffline(`/api/v1/quests/${encodeURIComponent(quest.slug)}/`, quest));
  }
}
