import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ErrorMessage, isNotFound } from '@/components/ErrorMessage';
import { NotFound } from '@/components/NotFound';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { percent } from '@/lib/header';
import { useLessonStatuses, type LessonStatus } from '@/lib/lessonStatus';
import { questQueries } from '@/lib/queries';
import { useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

/** The outline's mark and what a screen reader hears for it. */
const MARKS: Record<LessonStatus, { mark: string; words: string | null }> = {
  done: { mark: '✓', words: 'completed' },
  started: { mark: '◐', words: 'started' },
  untouched: { mark: '○', words: null },
};

export function QuestPage() {
  const { slug } = useParams();
  const quest = useQuery({ ...questQueries.detail(slug ?? ''), enabled: Boolean(slug) });
  const { isAuthenticated } = useAuth();
  const statuses = useLessonStatuses(quest.data?.lessons ?? []);

  useDocumentTitle(quest.data?.title);

  if (quest.isPending) return <Loading label="Loading the quest…" />;
  if (isNotFound(quest.error)) return <NotFound what="quest" />;
  if (quest.error) return <ErrorMessage error={quest.error} onRetry={() => void quest.refetch()} />;
  const lessons = quest.data.lessons;
  const bySlug = new Map(lessons.map((lesson) => [lesson.slug, lesson]));
  // Signed in, the server's figures; signed out, this device's completions.
  const done = (isAuthenticated ? quest.data.lessons_completed : null) ?? statuses.counts.done;
  const pct = (isAuthenticated ? quest.data.percent_complete : null) ?? percent(done, lessons.length);
  return (
    <div className="quest-page">
      <h1>{quest.data.title}</h1>
      <p>{quest.data.description}</p>
      <p>
        <strong>{pct}% complete</strong> · {done}/{lessons.length} lessons
        {statuses.counts.started ? ` · ${statuses.counts.started} started` : ''}
      </p>
      <ProgressBar value={done} max={lessons.length} label="Lessons completed" />
      {quest.data.units.map((unit) => (
        // Runs of consecutive lessons under their unit's heading; numbering runs on across them.
        <section key={unit.lessons[0]} className="unit">
          {unit.title ? <h2>{unit.title}</h2> : null}
          <ol className="outline" start={bySlug.get(unit.lessons[0])?.number}>
            {unit.lessons.map((lessonSlug) => {
              const lesson = bySlug.get(lessonSlug)!;
              const status = statuses.of(lessonSlug);
              const { mark, words } = MARKS[status];
              return (
                <li key={lessonSlug} className={status === 'untouched' ? undefined : status}>
                  <span className="check" aria-hidden="true">
                    {mark}
                  </span>
                  <Link to={`/lessons/${lessonSlug}`}>{lesson.title}</Link>
                  {words ? <span className="visually-hidden"> ({words})</span> : null}
                  <span className="muted">
                    {' '}
                    · {lesson.estimated_minutes} min · {lesson.xp} XP
                  </span>
                </li>
              );
            })}
          </ol>
        </section>
      ))}
    </div>
  );
}
