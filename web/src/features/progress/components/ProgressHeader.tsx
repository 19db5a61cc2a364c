import { Link } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { levelLabel } from '@/lib/header';
import type { ProgressSummary } from '@/lib/types';
import { useProgressHeader } from '../api';

type Shown = Pick<
  ProgressSummary,
  | 'quest'
  | 'level'
  | 'xp'
  | 'lessons_completed'
  | 'lessons_total'
  | 'achievements_unlocked'
  | 'achievements_total'
  | 'percent_complete'
  | 'xp_into_level'
  | 'xp_for_level'
  | 'xp_to_go'
> & { streak: { current: number }; next_level: unknown };

/**
 * Stands in, hidden, while the figures load: the card keeps the height it will have, so the
 * lesson below does not move when they arrive. The server's first answer draws the same
 * (pages/templates/pages/web/progress_pending.html).
 */
const PENDING: Shown = {
  quest: '',
  level: { number: 0, name: 'Token' },
  xp: 0,
  lessons_completed: 0,
  lessons_total: 10,
  achievements_unlocked: 0,
  achievements_total: 10,
  percent_complete: 0,
  streak: { current: 0 },
  next_level: { number: 1 },
  xp_into_level: 0,
  xp_for_level: 100,
  xp_to_go: 100,
};

/** Level, XP, lessons and achievements done, and the way to the next level. */
export function ProgressHeader({ questSlug, signedIn }: { questSlug: string; signedIn: boolean }) {
  const { data, isPending, error, refetch } = useProgressHeader(questSlug);
  if (error) return <ErrorMessage error={error} onRetry={() => void refetch()} />;
  if (isPending || !data) {
    return (
      <section className="progress-header pending" aria-label="Your progress" aria-busy="true">
        <Loading label="Loading your progress…" />
        <ProgressParts data={PENDING} signedIn={signedIn} />
      </section>
    );
  }
  return (
    <section className="progress-header" aria-label="Your progress" data-testid="progress-header">
      <ProgressParts data={data} signedIn={signedIn} />
    </section>
  );
}

function ProgressParts({ data, signedIn }: { data: Shown; signedIn: boolean }) {
  const atTop = data.next_level === null;
  return (
    <>
      <div className="progress-stats">
        <p className="level">
          <strong>{levelLabel(data.level)}</strong>
        </p>
        <p>
          <strong>{data.xp}</strong> XP
        </p>
        <p>
          <Link to={`/quests/${data.quest}`}>
            {data.lessons_completed}/{data.lessons_total} lessons
          </Link>
        </p>
        <p>
          <Link to="/achievements">
            {data.achievements_unlocked}/{data.achievements_total} achievements
          </Link>
        </p>
        <p>{data.percent_complete}% complete</p>
        {signedIn && data.streak.current > 0 ? <p>{data.streak.current}-day streak</p> : null}
      </div>
      <div className="progress-level">
        {atTop ? (
          <p>Top level reached</p>
        ) : (
          <>
            <p>
              {data.xp_into_level}/{data.xp_for_level} XP to next level
            </p>
            <ProgressBar value={data.xp_into_level} max={data.xp_for_level} label="XP toward the next level" />
            <p className="muted">{data.xp_to_go} XP to go</p>
          </>
        )}
      </div>
      {!signedIn ? (
        <p className="note">
          Progress is local-only — <Link to="/signin">sign in</Link> to sync across devices
        </p>
      ) : null}
    </>
  );
}

