// The learner's day, by the server's one rule (progress/streaks.py: day_of_activity): the day
// activity at an instant counts on, given the learner's last active day and when it began. A
// later day begins only once real time allows it, so a change of zone never makes a day twice.
// Checked against the server by the shared vectors in ./day-vectors.json.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface DayOfActivity {
  /** The day (YYYY-MM-DD) the activity counts on. */
  day: string;
  /** When the learner's last active day begins afterwards (null: a limit the server never set). */
  start: Date | null;
}

const partFormatters = new Map<string, Intl.DateTimeFormat | null>();

function partsIn(zone: string): Intl.DateTimeFormat | null {
  let format = partFormatters.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      // A zone this browser does not know: the browser's own.
      format = null;
    }
    partFormatters.set(zone, format);
  }
  return format;
}

/** The offset of `zone` (the browser's when undefined) from UTC at `instant`, in ms. */
function offsetAt(instant: number, zone: string | undefined): number {
  const format = zone === undefined ? null : partsIn(zone);
  if (format === null) return -new Date(instant).getTimezoneOffset() * 60_000;
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(new Date(instant))) part[type] = Number(value);
  const wall = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour! % 24, part.minute!, part.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

function dateOf(instant: number, zone: string | undefined): string {
  return new Date(instant + offsetAt(instant, zone)).toISOString().slice(0, 10);
}

/** `day` moved by `days` days. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instant `day` begins in `zone`: its first midnight, or the end of a gap that skips it
 * (what Python's zoneinfo answers for midnight with fold=0).
 */
export function dayStart(day: string, zone: string | undefined): number {
  const wall = Date.parse(`${day}T00:00:00Z`);
  const before = offsetAt(wall - 30 * HOUR_MS, zone);
  const after = offsetAt(wall + 30 * HOUR_MS, zone);
  const valid = [wall - before, wall - after].filter((t) => offsetAt(t, zone) === wall - t);
  return valid.length ? Math.min(...valid) : wall - before;
}

/**
 * The day activity at `at` counts on for a learner in `zone` (the browser's when undefined)
 * whose last active day was `last`, begun at `lastStart`; and when the last day begins after it.
 */
export function dayOfActivity(at: Date, zone: string | undefined, last: string | null, lastStart: Date | null): DayOfActivity {
  const time = at.getTime();
  let day = dateOf(time, zone);
  if (last === null || lastStart === null) {
    return { day, start: last === null || day > last ? new Date(dayStart(day, zone)) : lastStart };
  }
  const began = lastStart.getTime();
  if (day < last) return { day: time < began ? day : last, start: lastStart };
  if (day === last || time < began) return { day: last, start: lastStart };
  const base = dayStart(last, zone);
  if (day > addDays(last, 1) && began + (dayStart(addDays(last, 2), zone) - base) <= time) {
    // The run is broken whichever day this counts on: a new one begins with this zone's days.
    return { day, start: new Date(dayStart(day, zone)) };
  }
  while (day > last && began + (dayStart(day, zone) - base) > time) day = addDays(day, -1);
  if (day === last) return { day: last, start: lastStart };
  return { day, start: new Date(Math.max(dayStart(day, zone), began + (dayStart(day, zone) - base))) };
}
