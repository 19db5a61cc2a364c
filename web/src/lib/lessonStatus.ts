// Where the learner is with each lesson of a quest, for the outline and the home page: done,
// started (a check answered, not done yet) or untouched.
import { useQuery } from '@tanstack/react-query';
import { useLocalChecks, useLocalEvents } from './progressStore';
import { progressQueries } from './queries';
import { useAuth } from './session';
import type { OutlineLesson } from './types';

export type LessonStatus = 'done' | 'started' | 'untouched';

export interface LessonStatuses {
  of: (slug: string) => LessonStatus;
  /** How many of `lessons` are in each state. */
  counts: Record<LessonStatus, number>;
}

/**
 * Done: signed in, the server's completions (the outline's `completed`, or `completedSlugs`
 * from /me/progress) and any still waiting on this device; signed out, this device's. Started:
 * signed in, /me/lessons/started; either way, the lessons this device holds answers for.
 */
export function useLessonStatuses(lessons: Pick<OutlineLesson, 'slug' | 'completed'>[], completedSlugs?: string[]): LessonStatuses {
  const { isAuthenticated } = useAuth();
  const events = useLocalEvents();
  const checks = useLocalChecks();
  const started = useQuery({ ...progressQueries.started(), enabled: isAuthenticated });
  const done = new Set(events.map((event) => event.lesson));
  if (isAuthenticated) {
    lessons.filter((lesson) => lesson.completed).forEach((lesson) => done.add(lesson.slug));
    completedSlugs?.forEach((slug) => done.add(slug));
  }
  const begun = new Set(checks.answers.map((answer) => answer.lesson));
  if (isAuthenticated) started.data?.started.forEach((slug) => begun.add(slug));
  const of = (slug: string): LessonStatus => (done.has(slug) ? 'done' : begun.has(slug) ? 'started' : 'untouched');
  const counts: Record<LessonStatus, number> = { done: 0, started: 0, untouched: 0 };
  lessons.forEach((lesson) => (counts[of(lesson.slug)] += 1));
  return { of, counts };
}
