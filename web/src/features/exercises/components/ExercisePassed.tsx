import type { CSSProperties } from 'react';
import './ExercisePassed.css';

const SPARKS = 8;

/**
 * The small celebration when an attempt sent from this page passes: a star that pops and a ring
 * of sparks (only when the learner's system allows motion), and a line a screen reader reads out
 * (it is rendered inside the panel's polite live region). Drawn by the app, not an emoji.
 */
export function ExercisePassed({ xp }: { xp: number }) {
  return (
    <div className="exercise-passed" data-testid="exercise-passed">
      <span className="exercise-passed-burst" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="40" height="40" focusable="false">
          <path d="M12 2.5l2.8 6 6.6.7-4.9 4.5 1.4 6.5L12 16.9l-5.9 3.3 1.4-6.5-4.9-4.5 6.6-.7z" fill="currentColor" />
        </svg>
        {Array.from({ length: SPARKS }, (_, index) => (
          <span key={index} className="exercise-passed-spark" style={{ '--turn': `${index / SPARKS}turn` } as CSSProperties} />
        ))}
      </span>
      <p>
        <strong>Exercise passed!</strong>
        {xp > 0 ? ` +${xp} XP` : ' Well done.'}
      </p>
    </div>
  );
}
