// How a board's or a league's period reads: its days, and the time left on the learner's clock (the server
// gives both: first_day/last_day, and ends_at at the learner's midnight after the last day).
import { formatDate } from './timeZones';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** "ends in 3 days", "ends in 5 hours", "ends in less than an hour", or "has ended". */
export function timeLeft(endsAt: string, now: number = Date.now()): string {
  const left = new Date(endsAt).getTime() - now;
  if (left <= 0) return 'has ended';
  if (left >= 2 * DAY) return `ends in ${Math.floor(left / DAY)} days`;
  if (left >= 2 * HOUR) return `ends in ${Math.floor(left / HOUR)} hours`;
  if (left >= HOUR) return 'ends in 1 hour';
  return 'ends in less than an hour';
}

/** "Mar 2, 2026 – Mar 8, 2026" (the locale's dates): a period's calendar dates, which are the same in every zone. */
export function periodDays(firstDay: string, lastDay: string): string {
  return `${formatDate(`${firstDay}T12:00:00Z`, 'UTC')} – ${formatDate(`${lastDay}T12:00:00Z`, 'UTC')}`;
}
