// The page header for a signed-out learner, computed the way the server computes
// GET /api/v1/me/progress: XP from completed lessons, placed on the public level curve.
import { addDays, dayOfActivity } from './day';
import type { Level, LevelStep, OutlineLesson, ProgressSummary } from './types';

export type LevelPosition = Pick<ProgressSummary, 'level' | 'xp_into_level' | 'xp_for_level' | 'xp_to_go' | 'next_level'>;

export function levelFor(xp: number, curve: LevelStep[]): LevelPosition {
  const sorted = [...curve].sort((a, b) => a.xp_required - b.xp_required);
  let current: LevelStep = { number: 0, name: '', xp_required: 0 };
  let following: LevelStep | null = null;
  for (const step of sorted) {
    if (step.xp_required <= xp) current = step;
    else {
      following = step;
      break;
    }
  }
  return {
    level: { number: current.number, name: current.name },
    xp_into_level: xp - current.xp_required,
    xp_for_level: following ? following.xp_required - current.xp_required : 0,
    xp_to_go: following ? following.xp_required - xp : 0,
    next_level: following,
  };
}

/** Rounded down, as the server does: 100 only when every lesson is done. */
export function percent(done: number, total: number): number {
  return total ? Math.floor((100 * done) / total) : 0;
}

export interface LocalHeaderInput {
  quest: string;
  lessons: OutlineLesson[];
  completed: string[];
  curve: LevelStep[];
  achievementsTotal: number;
}

export function computeLocalHeader({ quest, lessons, completed, curve, achievementsTotal }: LocalHeaderInput): ProgressSummary {
  const done = new Set(completed);
  const inQuest = lessons.filter((lesson) => done.has(lesson.slug));
  const xp = inQuest.reduce((sum, lesson) => sum + lesson.xp, 0);
  return {
    quest,
    ...levelFor(xp, curve),
    xp,
    lessons_completed: inQuest.length,
    lessons_total: lessons.length,
    percent_complete: percent(inQuest.length, lessons.length),
    // Achievements are the server's to award; a device on its own has unlocked none.
    achievements_unlocked: 0,
    achievements_total: achievementsTotal,
    streak: { current: 0, best: 0, today: 'none', freezes: 0 },
    // A daily goal is an account setting: signed out there is none.
    daily_goal: { xp: null, xp_today: 0, met: false, chosen: false },
    completed_lessons: inQuest.map((lesson) => lesson.slug),
  };
}

/** "Level 0 · Token" */
export function levelLabel(level: Level): string {
  return level.name ? `Level ${level.number} · ${level.name}` : `Level ${level.number}`;
}

export interface LocalDay {
  /** XP of the lessons completed today on this device. */
  xpToday: number;
  /** Consecutive days, up to today or yesterday, with a completion on this device. */
  streak: number;
  /** done: a completion today; to_do: yesterday's run goes on with one today; none: no run. */
  today: 'done' | 'to_do' | 'none';
}

/**
 * Today's XP and a plain streak from this device's events, each on its day by the server's rule
 * (`dayOfActivity`, in the browser's zone or `zone`): no freezes (the server's to award), so a
 * missed day ends the run.
 */
export function computeLocalDay(
  events: { lesson: string; occurred_at: string }[],
  lessonXp: Map<string, number>,
  now: Date = new Date(),
  zone?: string,
): LocalDay {
  const inOrder = events
    .map((event) => ({ lesson: event.lesson, at: new Date(event.occurred_at) }))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  let last: string | null = null;
  let start: Date | null = null;
  const xpByDay = new Map<string, number>();
  for (const event of inOrder) {
    const counted = dayOfActivity(event.at, zone, last, start);
    if (last === null || counted.day > last) last = counted.day;
    start = counted.start;
    xpByDay.set(counted.day, (xpByDay.get(counted.day) ?? 0) + (lessonXp.get(event.lesson) ?? 0));
  }
  const today = dayOfActivity(now, zone, last, start).day;
  let cursor = xpByDay.has(today) ? today : addDays(today, -1);
  let streak = 0;
  while (xpByDay.has(cursor)) {
    streak += 1;
    cursor = addDays(cursor, -1);
  }
  const xpToday = xpByDay.get(today) ?? 0;
  return { xpToday, streak, today: xpByDay.has(today) ? 'done' : streak > 0 ? 'to_do' : 'none' };
}
