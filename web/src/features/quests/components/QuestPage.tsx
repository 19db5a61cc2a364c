import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ErrorMessage, isNotFound } from '@/components/ErrorMessage';
import { NotFound } from '@/components/NotFound';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { percent } from '@/lib/header';
import { useLocalEvents } from '@/lib/progressStore';
import { questQueries } from '@/lib/queries';
import { useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

export function QuestPage() {
  const { slug } = useParams();
  const quest = useQuery({ ...questQueries.detail(slug ?? ''), enabled: Boolean(slug) });
  const { isAuthenticated } = useAuth();
  const events = useLocalEvents();

  useDocumentTitle(quest.data?.title);

  if (quest.isPending) return <Loading label="Loading the quest…" />;
  if (isNotFound(quest.error)) return <NotFound what="quest" />;
  if (quest.error) return <ErrorMessage error={quest.error} onRetry={() => void quest.refetch()} />;
  const local = new Set(events.map((event) => event.lesson));
  const isDone = (lesson: { slug: string; completed: boolean | null }) =>
    isAuthenticated ? Boolean(lesson.completed) : local.has(lesson.slug);
  const lessons = quest.data.lessons;
  // Signed in, the server's figures; signed out, this device's completions.
  const done = (isAuthenticated ? quest.data.lessons_completed : null) ?? lessons.filter(isDone).length;
  const pct = (isAuthenticated ? quest.data.percent_complete : null) ?? percent(done, lessons.length);
  return (
    <div className="quest-page">
      <h1>{quest.data.title}</h1>
      <p>{quest.data.description}</p>
      <p>
        <strong>{pct}% complete</strong> · {done}/{lessons.length} lessons
      </p>
      <ProgressBar value={done} max={lessons.length} label="Lessons completed" />
      <ol className="outline">
        {lessons.map((lesson) => {
          const completed = isDone(lesson);
          return (
            <li key={lesson.slug} className={completed ? 'done' : undefined}>
              <span className="check" aria-hidden="true">
                {completed ? '✓' : '○'}
              </span>
              <Link to={`/lessons/${lesson.slug}`}>{lesson.title}</Link>
              {completed ? <span className="visually-hidden"> (completed)</span> : null}
              <span className="muted">
                {' '}
                · {lesson.estimated_minutes} min · {lesson.xp} XP
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
