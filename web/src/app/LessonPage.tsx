import { useQuery } from '@tanstack/react-query';
import { lazy, memo, Suspense, useMemo, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { ErrorMessage, isNotFound } from '@/components/ErrorMessage';
import { NotFound, Unavailable } from '@/components/NotFound';
import { Loading } from '@/components/Loading';
import { CheckView } from '@/features/checks/components/CheckView';
import { ChecksProvider, isCheck } from '@/features/checks/components/ChecksSession';
import { ChecksStatus, LessonComplete } from '@/features/checks/components/LessonChecksEnd';
import { Comments } from '@/features/comments/components/Comments';
import { lessonQueries } from '@/features/lessons/api';
import { BlockView } from '@/features/lessons/components/Blocks';
import { CompleteButton } from '@/features/progress/components/CompleteButton';
import { ProgressHeader } from '@/features/progress/components/ProgressHeader';
import { StreakAndGoal } from '@/features/progress/components/StreakAndGoal';
import { blockPlace, EXERCISE_PLACE, LINKS_PLACE, ReportButton, ReportDialog, reportPlaces, WHOLE_LESSON } from '@/features/reports/components/ReportDialog';
import { useAfterIdle } from '@/lib/idle';
import { useOnline } from '@/lib/offline';
import { useAuth } from '@/lib/session';
import type { Block } from '@/lib/types';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

// The exercise is below the lesson: its code (the table form, feedback, attempts) is its own
// chunk, fetched once the page is idle; meanwhile it shows the loading line the server sent.
const ExercisePanel = lazy(() => import('@/features/exercises/components/ExercisePanel').then((module) => ({ default: module.ExercisePanel })));
const EXERCISE_LOADING = <Loading label="Loading the exercise…" />;

export function LessonPage() {
  const { slug } = useParams();
  const lesson = useQuery({ ...lessonQueries.detail(slug ?? ''), enabled: Boolean(slug) });
  const { isAuthenticated } = useAuth();
  const [reporting, setReporting] = useState<string | null>(null);
  const data = lesson.data;
  const idle = useAfterIdle();
  const online = useOnline();
  // The dialog's list of parts reads each block's text: only once it opens.
  const open = reporting !== null;
  const places = useMemo(() => (data && open ? reportPlaces(data.blocks, data.links.length > 0, data.exercise) : []), [data, open]);

  useDocumentTitle(data?.title);

  // Offline, a read the device never kept fails, then waits for the network: say so at once,
  // not a spinner; the read runs again when the network is back.
  const waitsForNetwork = lesson.fetchStatus === 'paused' || (lesson.isError && !isNotFound(lesson.error));
  if (!data && !online && waitsForNetwork) return <NotOnThisDevice />;
  if (!data && lesson.isPending) return <Loading label="Loading the lesson…" />;
  if (isNotFound(lesson.error)) return <NotFound what="lesson" />;
  if (!data) return <ErrorMessage error={lesson.error} onRetry={() => void lesson.refetch()} />;
  // A renamed lesson's old address: the API followed its redirect; the address follows too.
  if (slug && data.slug !== slug) return <Navigate to={`/lessons/${data.slug}`} replace />;
  // The lesson ends with its exercise when it has one: completing it comes after trying it. A
  // lesson with checks is completed by passing them, not with "Mark complete".
  const hasChecks = data.blocks.some(isCheck);
  const actions = (
    <>
      {hasChecks ? <LessonComplete today={<StreakAndGoal quest={data.quest.slug} />} /> : null}
      <div className="lesson-actions">
        {hasChecks ? <ChecksStatus /> : <CompleteButton lesson={data} />}
        <button type="button" className="button secondary" onClick={() => setReporting(WHOLE_LESSON)}>
          Report an issue
        </button>
      </div>
    </>
  );
  return (
    <ChecksProvider lesson={data}>
      <div className="lesson-page">
        <ProgressHeader questSlug={data.quest.slug} signedIn={isAuthenticated} />
        <article className="lesson" aria-labelledby="lesson-title">
          <header className="lesson-head">
            {data.draft_of ? <DraftPreview live={data.draft_of} /> : null}
            <p className="muted">
              <Link to={`/quests/${data.quest.slug}`}>{data.quest.title}</Link>{data.number ? ` · Lesson ${data.number}` : null}
            </p>
            <h1 id="lesson-title">{data.title}</h1>
            <p className="meta">
              <span>{data.estimated_minutes} min</span> · <span>{data.xp} XP</span>
            </p>
            {data.tags.length ? (
              <ul className="tags" aria-label="Tags">
                {data.tags.map((tag) => (
                  <li key={tag}>{tag}</li>
                ))}
              </ul>
            ) : null}
          </header>
          <LessonBlocks blocks={data.blocks} onReport={setReporting} />
          {data.links.length ? (
            <section aria-labelledby="links-title">
              <h2 id="links-title">Further reading</h2>
              <ul className="links">
                {data.links.map((link) => (
                  <li key={link.url}>
                    <a href={link.url} target="_blank" rel="noopener noreferrer">
                      {link.title}
                      <span className="visually-hidden"> (opens in a new tab)</span>
                    </a>
                  </li>
                ))}
              </ul>
              <ReportButton place={LINKS_PLACE} onReport={setReporting} />
            </section>
          ) : null}
          {data.exercise ? null : actions}
        </article>
        {data.exercise ? (
          <>
            <div className="lesson-part">
              {idle ? (
                <Suspense fallback={EXERCISE_LOADING}>
                  <ExercisePanel exerciseId={data.exercise.id} signedIn={isAuthenticated} />
                </Suspense>
              ) : (
                EXERCISE_LOADING
              )}
              <ReportButton place={EXERCISE_PLACE} onReport={setReporting} />
            </div>
            {actions}
          </>
        ) : null}
        <ReportDialog lesson={data.slug} places={places} signedIn={isAuthenticated} place={reporting} onClose={() => setReporting(null)} />
        <nav className="prev-next" aria-label="Lessons">
          {data.previous ? (
            <Link to={`/lessons/${data.previous.slug}`} rel="prev">
              ← Previous: {data.previous.title}
            </Link>
          ) : (
            <span />
          )}
          {data.next ? (
            <Link to={`/lessons/${data.next.slug}`} rel="next">
              Next: {data.next.title} →
            </Link>
          ) : null}
        </nav>
        {data.draft_of ? null : <Comments lesson={data.slug} signedIn={isAuthenticated} load={idle} />}
      </div>
    </ChecksProvider>
  );
}

/** Staff previewing a draft of a live lesson (the API names the live one): learners see none of it. */
export function DraftPreview({ live }: { live: string }) {
  return (
    <p className="note" role="status">
      <strong>Draft preview.</strong> Learners read <Link to={`/lessons/${live}`}>the live lesson</Link> until this is published. Answers here pay no XP.
    </p>
  );
}

/**
 * The lesson's blocks, rendered again only when the lesson changes: not when the session, the
 * learner's progress or the report dialog's state arrive or change around them (a check reads
 * its own standing from the lesson's ChecksProvider).
 */
const LessonBlocks = memo(function LessonBlocks({ blocks, onReport }: { blocks: Block[]; onReport: (key: string) => void }) {
  return blocks.map((block) => (
    <div key={block.id} className="lesson-part">
      {block.kind === 'check' ? <CheckView block={block} /> : <BlockView block={block} />}
      <ReportButton place={blockPlace(block)} onReport={onReport} />
    </div>
  ));
});

function NotOnThisDevice() {
  return (
    <Unavailable title="Offline" heading="This lesson is not on this device yet" status>
      You are offline, and this lesson was never opened here. It opens by itself as soon as you are back online.
    </Unavailable>
  );
}
