import { describe, expect, it } from 'vitest';
import { calendar } from '@/test/fixtures';
import { cellLabel, heatmapLayout, WEEKS, xpLevel } from './heatmap';


describe('heatmapLayout', () => {
  const map = heatmapLayout(calendar);

  it('has 12 week columns of 7 days, each starting on a Monday, the last holding today', () => {
    expect(map.weeks).toHaveLength(WEEKS);
    for (const week of map.weeks) {
      expect(new Date(`${week.start}T00:00:00Z`).getUTCDay()).toBe(1);
      expect(week.cells).toHaveLength(7);
    }
    const last = map.weeks[WEEKS - 1];
    expect(last.start).toBe('2026-11-23');
    expect(last.cells.map((cell) => cell?.day ?? null)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', null, null, null]);
    expect(last.cells[3]?.today).toBe(true);
    expect(map.weeks[0].start).toBe('2026-09-07');
    expect(map.weeks[0].cells[0]?.day).toBe('2026-09-07');
  });

  it('places each day in its weekday row and week column', () => {
    // Tuesday 3 November: row 1 of the week of Monday 2 November.
    const week = map.weeks.find((candidate) => candidate.start === '2026-11-02');
    expect(week?.cells[1]).toMatchObject({ day: '2026-11-03', xp: 40, goalMet: true, level: 2 });
    expect(week?.cells[2]).toMatchObject({ day: '2026-11-04', xp: 0, frozen: true, level: 0 });
    expect(week?.label).toBe('Week of 2 Nov');
  });

  it('counts the days shown (the window before the first Monday is left out)', () => {
    expect(map.activeDays).toBe(2);
    expect(map.goalDays).toBe(2);
    expect(map.frozenDays).toBe(1);
  });

  it('names each month over its first column', () => {
    expect(map.weeks.map((week) => week.month).filter(Boolean)).toEqual(['Sep', 'Oct', 'Nov']);
    expect(map.weeks[4].month).toBe('Oct');
  });

  it('never shifts a day by the browser time zone (a Sunday today ends a full column)', () => {
    const sunday = heatmapLayout({ first_day: '2026-09-07', last_day: '2026-11-29', days: [] });
    expect(sunday.weeks[0].cells.every((cell) => cell !== null)).toBe(true);
    expect(sunday.weeks[WEEKS - 1].cells[6]?.day).toBe('2026-11-29');
  });
});

describe('xpLevel', () => {
  it.each([
    [0, 0],
    [1, 1],
    [29, 1],
    [30, 2],
    [59, 2],
    [60, 3],
    [119, 3],
    [120, 4],
    [500, 4],
  ])('%i XP is level %i', (xp, level) => {
    expect(xpLevel(xp)).toBe(level);
  });
});

describe('cellLabel', () => {
  it('says the day, the XP and the marks', () => {
    expect(cellLabel('2026-11-03', 40, true, false)).toBe('Tue 3 Nov: 40 XP, goal met');
    expect(cellLabel('2026-11-04', 0, false, true)).toBe('Wed 4 Nov: frozen (a streak freeze covered it)');
    expect(cellLabel('2026-11-05', 0, false, false, true)).toBe('Thu 5 Nov: no activity, today');
  });
});
