import { Link } from 'react-router';
import { Icon } from '@/components/Icon';
import { ProgressBar } from '@/components/ProgressBar';
import { levelLabel } from '@/lib/header';
import type { Streak } from '@/lib/types';
import { useGameState, type GameState } from '../api';

const TODAY: Record<Streak['today'], string> = {
  done: 'today done',
  to_do: 'today still to do',
  frozen: 'today kept by a streak freeze',
  none: '',
};

/** "3-day streak, today done" */
export function streakLabel(streak: Pick<Streak, 'current' | 'today'>): string {
  if (streak.current === 0) return 'No streak yet';
  return `${streak.current}-day streak, ${TODAY[streak.today] || TODAY.to_do}`;
}

/**
 * The top bar's game: level, XP, the streak with today's state and today's goal. Short on
 * screen ("Lv 2", a flame and "3"), in full for screen readers.
 */
export function GameBar({ quest, ready }: { quest: string; ready: boolean }) {
  const game = useGameState(quest, ready);
  if (!game) return <div className="game-bar" aria-hidden="true" />;
  return <GameBarView game={game} />;
}

export function GameBarView({ game }: { game: GameState }) {
  const { level, xp, streak } = game;
  const frozen = streak.today === 'frozen';
  return (
    <section className="game-bar" aria-label="Your game" data-testid="game-bar">
      <span className="game-level">
        <span aria-hidden="true">
          Lv {level.number}
          {level.name ? <span className="game-level-name"> · {level.name}</span> : null}
        </span>
        <span className="visually-hidden">{levelLabel(level)}</span>
      </span>
      <span className="game-xp">{xp} XP</span>
      <span className={`game-streak streak-${streak.current === 0 ? 'none' : streak.today}`} title={streakLabel(streak)}>
        <span aria-hidden="true">
          <Icon name={frozen ? 'snowflake' : 'flame'} size={14} className="game-streak-icon" />
          {streak.current}
        </span>
        <span className="visually-hidden">{streakLabel(streak)}</span>
      </span>
      <GoalPart game={game} />
    </section>
  );
}

function GoalPart({ game }: { game: GameState }) {
  if (!game.signedIn) {
    return (
      <span className="game-goal">
        <span>{game.xpToday} XP today</span>{' '}
        <Link to="/signup" className="game-goal-link" aria-label="Daily goal: sign up to set one">
          Daily goal
        </Link>
      </span>
    );
  }
  const goal = game.goal;
  if (!goal || goal.xp === null) {
    return (
      <span className="game-goal">
        <span>{game.xpToday} XP today</span>{' '}
        <Link to="/settings#daily-goal" className="game-goal-link" aria-label="Set a goal: choose the XP to earn each day">
          Set a goal
        </Link>
      </span>
    );
  }
  return (
    <span className={`game-goal${goal.met ? ' goal-met' : ''}`} data-testid="game-goal">
      <span>
        {goal.met ? <span aria-hidden="true">✓ </span> : null}
        {goal.xp_today}/{goal.xp} XP today
        {goal.met ? <span className="visually-hidden">, daily goal reached</span> : null}
      </span>
      <ProgressBar value={Math.min(goal.xp_today, goal.xp)} max={goal.xp} label="Today's goal" />
    </span>
  );
}
