// The activity calendar's layout: a grid of 7 rows (Monday to Sunday) by WEEKS columns, the last
// column holding today, from the server's days. Dates are the learner's calendar days as the
// server wrote them (YYYY-MM-DD in the learner's time zone), so the arithmetic here is on
// plain dates (UTC midnights), never shifted by the browser's own zone.
import type { Calendar } from '@/lib/types';

export const WEEKS = 12;
const DAY_MS = 86_400_000;

/** XP buckets of the cells, lowest bound first: a lesson is worth 20–50 XP. */
export const XP_LEVELS = [
  { level: 1, min: 1, label: '1–29 XP' },
  { level: 2, min: 30, label: '30–59 XP' },
  { level: 3, min: 60, label: '60–119 XP' },
  { level: 4, min: 120, label: '120+ XP' },
] as const;

export type XpLevel = 0 | 1 | 2 | 3 | 4;

export interface HeatCell {
  day: string;
  xp: number;
  goalMet: boolean;
  frozen: boolean;
  today: boolean;
  level: XpLevel;
  /** What a screen reader says, e.g. "Tue 3 Nov: 40 XP, goal met". */
  label: string;
}

export interface HeatWeek {
  /** The week's Monday. */
  start: string;
  /** "Week of 7 Sep", for the column header. */
  label: string;
  /** The month's name on the first column of each month, else empty. */
  month: string;
  /** Monday to Sunday; null for days after today. */
  cells: (HeatCell | null)[];
}

export interface Heatmap {
  weeks: HeatWeek[];
  activeDays: number;
  goalDays: number;
  frozenDays: number;
}

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

// Written out rather than by Intl: the app's words are English, and ICU versions disagree on
// short month names ("Sep" or "Sept").
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const monthName = (time: number) => MONTHS[new Date(time).getUTCMonth()];
const shortDate = (time: number) => `${new Date(time).getUTCDate()} ${monthName(time)}`;
const weekdayOf = (time: number) => (new Date(time).getUTCDay() + 6) % 7; // Monday 0

const toTime = (day: string) => Date.parse(`${day}T00:00:00Z`);
const toDay = (time: number) => new Date(time).toISOString().slice(0, 10);

export function xpLevel(xp: number): XpLevel {
  let level: XpLevel = 0;
  for (const bucket of XP_LEVELS) if (xp >= bucket.min) level = bucket.level;
  return level;
}

export function cellLabel(day: string, xp: number, goalMet: boolean, frozen: boolean, today = false): string {
  const parts = [xp > 0 ? `${xp} XP` : frozen ? null : 'no activity'];
  if (goalMet) parts.push('goal met');
  if (frozen) parts.push('frozen (a streak freeze covered it)');
  if (today) parts.push('today');
  const time = toTime(day);
  return `${WEEKDAYS[weekdayOf(time)]} ${shortDate(time)}: ${parts.filter(Boolean).join(', ')}`;
}

export function heatmapLayout(calendar: Calendar, weeks = WEEKS): Heatmap {
  const byDay = new Map(calendar.days.map((entry) => [entry.day, entry]));
  const last = toTime(calendar.last_day);
  const first = toTime(calendar.first_day);
  const firstMonday = last - (weekdayOf(last) + 7 * (weeks - 1)) * DAY_MS;
  const result: Heatmap = { weeks: [], activeDays: 0, goalDays: 0, frozenDays: 0 };
  const starts = Array.from({ length: weeks }, (_, column) => firstMonday + column * 7 * DAY_MS);
  const months = starts.map(monthName);
  for (const [column, start] of starts.entries()) {
    // A month's name over its first column; not over a lone first column (it would run into
    // the next month's name).
    const newMonth = column === 0 ? months[1] === months[0] : months[column] !== months[column - 1];
    const cells: (HeatCell | null)[] = [];
    for (let row = 0; row < 7; row += 1) {
      const time = start + row * DAY_MS;
      if (time > last || time < first) {
        cells.push(null);
        continue;
      }
      const day = toDay(time);
      const entry = byDay.get(day);
      const xp = entry?.xp ?? 0;
      const goalMet = entry?.goal_met ?? false;
      const frozen = entry?.frozen ?? false;
      if (xp > 0) result.activeDays += 1;
      if (goalMet) result.goalDays += 1;
      if (frozen) result.frozenDays += 1;
      cells.push({ day, xp, goalMet, frozen, today: time === last, level: xpLevel(xp), label: cellLabel(day, xp, goalMet, frozen, time === last) });
    }
    result.weeks.push({ start: toDay(start), label: `Week of ${shortDate(start)}`, month: newMonth ? months[column] : '', cells });
  }
  return result;
}
