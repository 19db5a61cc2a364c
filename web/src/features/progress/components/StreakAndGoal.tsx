import { Link } from 'react-router';
import { ProgressBar } from '@/components/ProgressBar';
import { useGameState } from '../api';
import { Icon } from '@/components/Icon';

/** The streak and today's goal, as the top bar counts them, in sentences: for the lesson-complete screen. */
export function StreakAndGoal({ quest }: { quest: string }) {
  const game = useGameState(quest, true);
  if (!game) return null;
  const { streak, goal, xpToday } = game;
  const where = game.signedIn ? '' : ' on this device';
  return (
    <div className="streak-goal">
      <p>
        <Icon name="flame" className="inline-icon" /> 
        {streak.current > 0 ? `${streak.current}-day streak${where}` : `No streak yet${where}`}
        {streak.today === 'done' ? ' · today is done' : ''}
      </p>
      {!game.signedIn ? (
        <p>
          Today: <strong>{xpToday} XP</strong>. <Link to="/signup">Create an account</Link> to set a daily goal and keep your streak.
        </p>
      ) : goal?.xp ? (
        <>
          <p>
            Daily goal: <strong>{xpToday}</strong> of {goal.xp} XP{goal.met ? ' · met ✓' : ''}
          </p>
          <ProgressBar value={Math.min(xpToday, goal.xp)} max={goal.xp} label="Today's XP toward the daily goal" />
        </>
      ) : (
        <p>
          Today: <strong>{xpToday} XP</strong>. <Link to="/settings#daily-goal">Set a daily goal</Link>
        </p>
      )}
    </div>
  );
}
