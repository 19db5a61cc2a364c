import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { achievementQueries } from '@/lib/queries';
import { useAuth, useTimeZone } from '@/lib/session';
import { formatDate } from '@/lib/timeZones';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

export function AchievementsPage() {
  const achievements = useQuery(achievementQueries.list());
  const { isAuthenticated } = useAuth();
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
        {!isAuthenticated ? ' · sign in to earn achievements' : ''}
      </p>
      <ul className="cards achievements">
        {data.results.map((achievement) => (
          <li key={achievement.slug} className={`card ${achievement.unlocked ? 'unlocked' : 'locked'}`}>
            <h2>
              <span aria-hidden="true">{achievement.unlocked ? '🏆' : '🔒'}</span> {achievement.title}
            </h2>
            <p className="badge">{achievement.unlocked ? 'Unlocked' : 'Locked'}</p>
            <p>{achievement.description}</p>
            {achievement.xp_bonus ? <p className="muted">+{achievement.xp_bonus} XP bonus</p> : null}
            {achievement.unlocked && achievement.unlocked_at ? (
              <p className="muted">Unlocked {formatDate(achievement.unlocked_at, zone)}</p>
            ) : null}
            {achievement.progress && !achievement.unlocked ? (
              <>
                <p>
                  {achievement.progress.current}/{achievement.progress.target}
                </p>
                <ProgressBar
                  value={achievement.progress.current}
                  max={achievement.progress.target}
                  label={`Progress toward ${achievement.title}`}
                />
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
