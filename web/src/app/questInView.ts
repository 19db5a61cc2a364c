import { useQuery } from '@tanstack/react-query';
import { useMatch } from 'react-router';
import { lessonQueries } from '@/features/lessons/api';

/**
 * The quest the page is about, for the top bar's /me/progress: a lesson's quest (from the lesson
 * the page loads anyway) or the quest page's, so the bar and the lesson header share one query.
 * '' elsewhere: the server's default, the demo quest. Not `ready` while the lesson is loading.
 */
export function useQuestInView(): { quest: string; ready: boolean } {
  const lessonPage = useMatch('/lessons/:slug');
  const questPage = useMatch('/quests/:slug');
  const lessonSlug = lessonPage?.params.slug ?? '';
  const lesson = useQuery({ ...lessonQueries.detail(lessonSlug), enabled: Boolean(lessonSlug) });
  if (questPage?.params.slug) return { quest: questPage.params.slug, ready: true };
  if (lessonSlug) return { quest: lesson.data?.quest.slug ?? '', ready: Boolean(lesson.data) || lesson.isError };
  return { quest: '', ready: true };
}
