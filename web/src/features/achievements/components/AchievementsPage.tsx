import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { localAchievementProgress, progressWords, type Achievement, type LocalFacts, type Measure } from '@/lib/achievementProgress';
import { useLocalEvents } from '@/lib/progressStore';
import { achievementQueries, questQueries } from '@/lib/queries';
import { useAuth, useTimeZone } from '@/lib/session';
import { formatDate } from '@/lib/timeZones';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import { Icon } from '@/components/Icon';

export function AchievementsPage() {
  const achievements = useQuery(achievementQueries.list());
  const { isAuthenticated, isPending: authPending } = useAuth();
  const local = useLocalFacts(!authPending && !isAuthenticated, achievements.data?.results ?? []);
  const zone = useTimeZone();
  useDocumentTitle('Achievements');
  if (achievements.isPending) return <Loading label="Loading achievements…" />;
  if (achievements.error) return <ErrorMessage error={achievements.error} onRetry={() => void achievements.refetch()} />;
  const data = achievements.data;
  return (
    <div>
      <h1>Achievements</h1>
      <p>
        {data.unlocked_count}/{data.count} unlocked
        {!isAuthenticated ? (
          <>
            {' · '}
            progress from this device; <Link to="/signin?next=/achievements">sign in</Link> to earn achievements
          </>
        ) : null}
      </p>
      <ul className="cards achievements">
        {data.results.map((achievement) => {
          const progress = isAuthenticated ? achievement.progress : local && localAchievementProgress(achievement.rule, local);
          return (
            <li key={achievement.slug} className={`card ${achievement.unlocked ? 'unlocked' : 'locked'}`}>
              <h2>
                <Icon name="trophy" size={20} className="inline-icon" /> {achievement.title}
              </h2>
              <p className="badge">{achievement.unlocked ? 'Unlocked' : 'Locked'}</p>
              <p>{achievement.description}</p>
              {achievement.xp_bonus ? <p className="muted">+{achievement.xp_bonus} XP bonus</p> : null}
              {achievement.unlocked && achievement.unlocked_at ? (
                <p className="muted">Unlocked {formatDate(achievement.unlocked_at, zone)}</p>
              ) : (
                <AchievementProgress achievement={achievement} progress={progress} signedIn={isAuthenticated} pending={!isAuthenticated && !local} />
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

interface ProgressProps {
  achievement: Achievement;
  progress: Measure | null | undefined;
  signedIn: boolean;
  /** Signed out, while the quest outlines load. */
  pending: boolean;
}

function AchievementProgress({ achievement, progress, signedIn, pending }: ProgressProps) {
  if (pending || (signedIn && !progress)) return null;
  if (!progress) {
    return (
      <p className="muted" data-testid="achievement-progress">
        <Link to="/signin?next=/achievements">Sign in</Link> to track
      </p>
    );
  }
  const words = progressWords(achievement.rule, progress);
  return (
    <div className="achievement-progress" data-testid="achievement-progress">
      <p>{words}</p>
      <ProgressBar value={progress.current} max={progress.target} label={`Progress toward ${achievement.title}: ${words}`} />
      {!signedIn && progress.target > 0 && progress.current >= progress.target ? (
        <p className="muted">
          Reached on this device: <Link to="/signup">create an account</Link> to unlock it
        </p>
      ) : null}
    </div>
  );
}

/**
 * What this device knows for the signed-out progress: its completions and the outlines of the
 * quests listed and of any quest a rule names. Undefined until they have loaded (or when
 * `enabled` is false); a quest that fails to load only leaves its rules "sign in to track".
 */
function useLocalFacts(enabled: boolean, achievements: Achievement[]): LocalFacts | undefined {
  const events = useLocalEvents();
  const list = useQuery({ ...questQueries.list(), enabled });
  const named = achievements.map((achievement) => achievement.rule.quest).filter((slug): slug is string => Boolean(slug));
  const slugs = [...new Set([...(list.data?.results.map((quest) => quest.slug) ?? []), ...named])];
  const details = useQueries({ queries: slugs.map((slug) => ({ ...questQueries.detail(slug), enabled: enabled && !list.isPending })) });
  if (!enabled || list.isPending || details.some((detail) => detail.isPending)) return undefined;
  return {
    quests: details.flatMap((detail) => (detail.data ? [detail.data] : [])),
    completed: events.map((event) => event.lesson),
  };
}
