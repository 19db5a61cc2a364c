import { useId } from 'react';
import { GOAL_CHOICES, type GoalXp } from '@/lib/dailyGoal';

const NAMES: Record<GoalXp, string> = { 10: 'Casual', 20: 'Regular', 30: 'Serious', 50: 'Intense' };

/** The daily goals on offer as a radio group (arrow keys move between them). */
export function GoalPicker({ value, onChange, legend }: { value: GoalXp | null; onChange: (xp: GoalXp) => void; legend: string }) {
  const name = useId();
  return (
    <fieldset className="goal-picker">
      <legend>{legend}</legend>
      {GOAL_CHOICES.map((xp) => (
        <label key={xp} className="radio goal-choice">
          <input type="radio" name={name} value={xp} checked={value === xp} onChange={() => onChange(xp)} />
          <span>
            <strong>{xp} XP</strong> a day <span className="muted">· {NAMES[xp]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
