import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useChecks } from './ChecksSession';
import './LessonComplete.css';
import { Icon } from '@/components/Icon';

/** "2 min", "under a minute", "1 h 5 min". */
export function spentTime(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

/**
 * Once the last check is passed on this page: the XP it brought, the checks right at the first
 * try, the time spent, the streak and goal (`today`), and the way on.
 */
export function LessonComplete({ today }: { today: ReactNode }) {
  const { lesson, checks, standings, openedAt, completion, resultsAsked } = useChecks();
  const screen = useRef<HTMLElement>(null);
  // "See your results" may be pressed before this chunk has arrived: the screen comes into view then.
  useEffect(() => {
    if (!resultsAsked) return;
    screen.current?.scrollIntoView?.({ block: 'start' });
    screen.current?.focus();
  }, [resultsAsked]);
  if (!completion) return null;
  const firstTry = checks.filter((check) => standings.get(check.id)?.passed_first_try).length;
  return (
    <section ref={screen} id="lesson-complete" className="lesson-complete" tabIndex={-1} aria-labelledby="lesson-complete-title">
      <p className="lesson-complete-burst">
        <Icon name="celebrate" size={48} />
      </p>
      <h2 id="lesson-complete-title">Lesson complete!</h2>
      <dl className="lesson-complete-stats">
        <div>
          <dt>XP earned</dt>
          <dd>+{completion.xp} XP</dd>
        </div>
        <div>
          <dt>Right at the first try</dt>
          <dd>
            {firstTry} of {checks.length} checks
          </dd>
        </div>
        <div>
          <dt>Time spent</dt>
          <dd>{spentTime(completion.at - openedAt)}</dd>
        </div>
      </dl>
      {today}
      {lesson.next ? (
        <Link className="button big" to={`/lessons/${lesson.next.slug}`}>
          Next lesson: {lesson.next.title}
        </Link>
      ) : (
        <Link className="button big" to={`/quests/${lesson.quest.slug}`}>
          Back to the quest
        </Link>
      )}
    </section>
  );
}
