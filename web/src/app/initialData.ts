import type { DataTag, QueryClient, QueryKey, QueryMeta } from '@tanstack/react-query';
import { lessonQueries } from '@/features/lessons/api';
import { whenIdle } from '@/lib/idle';
import { rememberForOffline } from '@/lib/offline';
import { achievementQueries, progressQueries, questQueries } from '@/lib/queries';
import { ensureConfig, sessionQuery, toAuthState } from '@/lib/session';
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

type Answers = Required<InitialData>;

/** Where an answer goes: the query the pages read it by (its key, and its offline address in its
 * meta), and what it holds there. */
type Seed = [query: { queryKey: QueryKey; meta?: QueryMeta }, cached: unknown];

/** A `Seed`, checking that `cached` is what its query holds (the tuple no longer says). */
function into<T>(query: { queryKey: DataTag<QueryKey, T, Error>; meta?: QueryMeta }, cached: NoInfer<T>): Seed {
  return [query, cached];
}

/** Each answer the server may embed, in the order it is seeded (and kept offline). */
const SEEDS: { [K in keyof Answers]: (answer: Answers[K]) => Seed } = {
  lesson: (lesson) => into(lessonQueries.detail(lesson.slug), lesson),
  quest: (quest) => into(questQueries.detail(quest.slug), quest),
  levels: (levels) => into(progressQueries.levels(), levels),
  achievements: (list) => into(achievementQueries.list(), list),
  session: (session) => into(sessionQuery, toAuthState(session)),
};

function seed<K extends keyof Answers>(name: K, answer: Answers[K]): Seed {
  return SEEDS[name](answer);
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
  for (const name of Object.keys(SEEDS) as (keyof InitialData)[]) {
    const answer = data[name];
    if (!answer) continue;
    const [{ queryKey, meta }, cached] = seed(name, answer);
    client.setQueryData(queryKey, cached);
    const copy = meta?.offline;
    // One idle moment each: every write serialises its answer at once.
    if (copy) whenIdle(() => void rememberForOffline(copy.url, answer, copy.cacheName));
  }
  // Fetching the session also fetches allauth's config, which sets the CSRF cookie a signed-in
  // POST needs (lib/session.ts); with the session served, that read still happens, later.
  if (data.session) whenIdle(() => void ensureConfig(client).catch(() => undefined));
}
