import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adoptDeviceRecord, claim, observe, settle, useCelebrationQueue, type AchievementInfo } from './celebrations';
import { dayIn } from './timeZones';

const firstToken: AchievementInfo = { slug: 'first-token', title: 'First token', description: 'Complete your first lesson.', xpBonus: 10 };
const tenLessons: AchievementInfo = { slug: 'growing-context', title: 'Growing context window', description: 'Complete 10 lessons.', xpBonus: 25 };
const level = (number: number, xp = 0) => ({ level: { number, name: `L${number}` }, xp });
const goal = (met: boolean, day = '2026-12-01') => ({ xp: 20, xpToday: met ? 25 : 5, met, day });
const keys = (found: { key: string }[]) => found.map((item) => item.key);

describe('celebrations: each shown once per learner per device', () => {
  beforeEach(() => localStorage.clear());

  it('records a baseline on the first look and celebrates nothing old', () => {
    expect(observe('7', { level: level(3), achievements: [firstToken], goal: goal(true) })).toEqual([]);
    // The same state again: still nothing.
    expect(observe('7', { level: level(3), achievements: [firstToken], goal: goal(true) })).toEqual([]);
  });

  it('celebrates what changed after the baseline: a level, an achievement, a goal met today', () => {
    observe('7', { level: level(1), achievements: [], goal: goal(false) });
    const found = observe('7', { level: level(2, 300), achievements: [firstToken, tenLessons], goal: goal(true) });
    expect(keys(found)).toEqual(['level:2', 'achievement:first-token', 'achievement:growing-context', 'goal:2026-12-01']);
    expect(found[0]).toMatchObject({ kind: 'level', level: { number: 2, name: 'L2' }, xp: 300 });
    expect(found[1]).toMatchObject({ title: 'First token', description: 'Complete your first lesson.' });
    expect(observe('7', { level: level(2, 300), achievements: [firstToken, tenLessons], goal: goal(true) })).toEqual([]);
  });

  it('celebrates the goal again on another day, not twice on one', () => {
    observe('7', { goal: goal(false, '2026-12-01') });
    expect(keys(observe('7', { goal: goal(true, '2026-12-01') }))).toEqual(['goal:2026-12-01']);
    expect(observe('7', { goal: goal(true, '2026-12-01') })).toEqual([]);
    expect(keys(observe('7', { goal: goal(true, '2026-12-02') }))).toEqual(['goal:2026-12-02']);
  });

  it('does not celebrate a goal met without a goal set', () => {
    observe('7', { goal: goal(false) });
    expect(observe('7', { goal: { xp: null, xpToday: 40, met: true, day: '2026-12-01' } })).toEqual([]);
  });

  it('the fast path celebrates an answer at once, and the slow path then stays quiet', () => {
    observe('7', { level: level(0), achievements: [] });
    expect(keys(claim('7', { levelUp: level(1, 130), achievements: [firstToken] }))).toEqual(['level:1', 'achievement:first-token']);
    expect(observe('7', { level: level(1, 130), achievements: [firstToken] })).toEqual([]);
    // The same answer twice (a retried request) is not celebrated twice either.
    expect(claim('7', { levelUp: level(1, 130), achievements: [firstToken] })).toEqual([]);
  });

  it('an answer before any look is new by definition, and the first look then adds no old things', () => {
    expect(keys(claim('7', { achievements: [tenLessons] }))).toEqual(['achievement:growing-context']);
    // This device never looked at learner 7's list: its other unlocks are old, not new.
    expect(observe('7', { achievements: [firstToken, tenLessons] })).toEqual([]);
    expect(keys(observe('7', { achievements: [firstToken, tenLessons, { ...firstToken, slug: 'x', title: 'X' }] }))).toEqual(['achievement:x']);
  });

  it('keeps learners apart on one device', () => {
    observe('local', { level: level(0) });
    observe('7', { level: level(4) });
    expect(keys(observe('local', { level: level(1) }))).toEqual(['level:1']);
    expect(observe('7', { level: level(4) })).toEqual([]);
    expect(keys(observe('8', { level: level(9) }))).toEqual([]);
  });

  it('a new account takes over the level this device celebrated, so its sync celebrates only what is new', () => {
    observe('local', { level: level(0) });
    claim('local', { levelUp: level(1, 130) });
    adoptDeviceRecord('9');
    expect(observe('9', { level: level(1, 140), achievements: [] })).toEqual([]);
    expect(keys(observe('9', { level: level(2, 300), achievements: [firstToken] }))).toEqual(['level:2', 'achievement:first-token']);
  });

  it('survives a broken record', () => {
    localStorage.setItem('lp.celebrated.7', '{not json');
    expect(observe('7', { level: level(2) })).toEqual([]);
    expect(keys(observe('7', { level: level(3) }))).toEqual(['level:3']);
  });

  it('queues what it found once, the highest level-up only, until it is settled', () => {
    const { result } = renderHook(() => useCelebrationQueue());
    observe('7', { level: level(0), achievements: [] });
    act(() => {
      claim('7', { levelUp: level(1), achievements: [firstToken, tenLessons] });
      claim('7', { levelUp: level(2) });
    });
    expect(keys(result.current)).toEqual(['achievement:first-token', 'achievement:growing-context', 'level:2']);
    act(() => settle('level:2'));
    expect(keys(result.current)).toEqual(['achievement:first-token', 'achievement:growing-context']);
  });

  it('names the day in the learner’s zone', () => {
    const now = new Date('2026-12-01T23:30:00Z');
    expect(dayIn('UTC', now)).toBe('2026-12-01');
    expect(dayIn('Asia/Tokyo', now)).toBe('2026-12-02');
    expect(dayIn('America/Los_Angeles', now)).toBe('2026-12-01');
    expect(dayIn('Not/AZone', now)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
