import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { useTimeZone } from '@/lib/session';
import { zoneLabel } from '@/lib/timeZones';
import type { DailyGoal, Streak } from '@/lib/types';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import { myProgressQueries } from '../api';
import './ProgressPage.css';
import { ActivityHeatmap } from './ActivityHeatmap';
import { Icon } from '@/components/Icon';
import rules from '@/lib/rules.json';

/** The streak rule's numbers (progress/streaks.py, through lib/rules.json), for the explanation. */
export const { freeze_every: FREEZE_EVERY, max_freezes: MAX_FREEZES } = rules.streak;

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** The signed-in learner's own progress: streak, today's goal and the last 12 weeks. */
export function ProgressPage() {
  const overview = useQuery(myProgressQueries.overview());
  const calendar = useQuery(myProgressQueries.calendar());
  const zone = useTimeZone();
  useDocumentTitle('Your progress');
  return (
    <div className="progress-page">
      <h1>Your progress</h1>
      {overview.isPending ? <Loading label="Loading your streak…" /> : null}
      {overview.error ? <ErrorMessage error={overview.error} onRetry={() => void overview.refetch()} /> : null}
      {overview.data ? (
        <div className="progress-overview">
          <StreakCard streak={overview.data.streak} />
          <GoalCard goal={overview.data.daily_goal} />
        </div>
      ) : null}
      <section aria-labelledby="calendar-heading" className="card">
        <h2 id="calendar-heading">Last 12 weeks</h2>
        {calendar.isPending ? <Loading label="Loading your calendar…" /> : null}
        {calendar.error ? <ErrorMessage error={calendar.error} onRetry={() => void calendar.refetch()} /> : null}
        {calendar.data ? <ActivityHeatmap calendar={calendar.data} /> : null}
        {zone ? <p className="muted">Days in your time zone, {zoneLabel(zone)}.</p> : null}
      </section>
    </div>
  );
}

const TODAY: Record<Streak['today'], string> = {
  done: 'Today: done. Come back tomorrow to keep it going.',
  to_do: 'Today: still to do. Complete a lesson to keep your streak.',
  frozen: 'You missed a day, and a streak freeze covers it: complete a lesson today to carry your streak on.',
  none: 'Complete a lesson today to start a streak.',
};

function StreakCard({ streak }: { streak: Streak }) {
  return (
    <section aria-labelledby="streak-heading" className="card streak-card" data-testid="streak-card">
      <h2 id="streak-heading">Streak</h2>
      <p className="big-number">
        {days(streak.current)}
        <span className="muted"> · best {days(streak.best)}</span>
      </p>
      <p className={`streak-today streak-${streak.today}`}>{TODAY[streak.today]}</p>
      <p>
        <span aria-hidden="true" className="freeze-marks">
          {Array.from({ length: streak.freezes }, (_, index) => (
            <Icon key={index} name="snowflake" size={14} />
          ))}
        </span>{' '}
        {streak.freezes} of {MAX_FREEZES} streak freezes held
      </p>
      <p className="muted">
        You earn a streak freeze for every {FREEZE_EVERY} days in a row (you can hold {MAX_FREEZES}). If you miss a day,
        a freeze you hold covers it automatically. A day the platform itself was down never breaks a streak.
      </p>
    </section>
  );
}

function GoalCard({ goal }: { goal: DailyGoal }) {
  return (
    <section aria-labelledby="goal-heading" className="card goal-card">
      <h2 id="goal-heading">Today’s goal</h2>
      {goal.xp === null ? (
        <p>
          No daily goal yet. <Link to="/settings">Choose one in Settings</Link>.
        </p>
      ) : (
        <>
          <p className="big-number">
            {goal.xp_today} XP<span className="muted"> · goal {goal.xp} XP a day</span>
          </p>
          <ProgressBar value={Math.min(goal.xp_today, goal.xp)} max={goal.xp} label="Today’s goal" />
          <p>{goal.met ? 'Goal met. Well done!' : `${goal.xp - goal.xp_today} XP to go today.`}</p>
        </>
      )}
    </section>
  );
}
