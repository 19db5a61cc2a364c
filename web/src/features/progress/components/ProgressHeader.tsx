import { Link } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { ProgressBar } from '@/components/ProgressBar';
import { levelLabel } from '@/lib/header';
import { useProgressHeader } from '../api';

/** Level, XP, lessons and achievements done, and the way to the next level. */
export function ProgressHeader({ questSlug, signedIn }: { questSlug: string; signedIn: boolean }) {
  const { data, isPending, error, refetch } = useProgressHeader(questSlug);
  if (error) return <ErrorMessage error={error} onRetry={() => void refetch()} />;
  if (isPending || !data) return <Placeholder signedIn={signedIn} />;
  const atTop = data.next_level === null;
  return (
    <section className="progress-header" aria-label="Your progress" data-testid="progress-header">
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
    </section>
  );
}

/**
 * The header's shape while its figures load: the same rows, so the lesson below does not move
 * when they arrive (a layout shift on every first visit otherwise).
 */
function Placeholder({ signedIn }: { signedIn: boolean }) {
  return (
    <section className="progress-header" aria-label="Your progress" aria-busy="true">
      <div className="progress-stats">
        <p className="level">
          <strong>Level –</strong>
        </p>
        <p>– XP</p>
        <p>–/– lessons</p>
        <p>–/– achievements</p>
        <p>–% complete</p>
      </div>
      <div className="progress-level">
        <p>–/– XP to next level</p>
        <div className="progress-bar" aria-hidden="true" />
        <p className="muted">– XP to go</p>
      </div>
      {!signedIn ? <p className="note">Progress is local-only — sign in to sync across devices</p> : null}
    </section>
  );
}
