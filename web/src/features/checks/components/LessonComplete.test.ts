import { describe, expect, it } from 'vitest';
import { spentTime } from './LessonComplete';

describe('time spent on a lesson', () => {
  it('reads in minutes, then hours and minutes', () => {
    expect(spentTime(20_000)).toBe('under a minute');
    expect(spentTime(4 * 60_000 + 10_000)).toBe('4 min');
    expect(spentTime(65 * 60_000)).toBe('1 h 5 min');
    expect(spentTime(120 * 60_000)).toBe('2 h');
  });
});
