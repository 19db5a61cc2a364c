import { describe, expect, it } from 'vitest';
import { levels, quest } from '@/test/fixtures';
import { computeLocalDay, computeLocalHeader, levelFor, levelLabel, percent } from './header';
import sharedVectors from './header-vectors.json';

const input = (completed: string[]) => ({ quest: 'transformers', lessons: quest.lessons, completed, curve: levels.results, achievementsTotal: 10 });

describe('signed-out header', () => {
  it('starts at Level 0 · Token with 0/94 lessons, 0/10 achievements and 120 XP to go', () => {
    const header = computeLocalHeader(input([]));
    expect(levelLabel(header.level)).toBe('Level 0 · Token');
    expect(header).toMatchObject({
      xp: 0,
      lessons_completed: 0,
      lessons_total: 94,
      achievements_unlocked: 0,
      achievements_total: 10,
      xp_into_level: 0,
      xp_for_level: 120,
      xp_to_go: 120,
      percent_complete: 0,
      next_level: { number: 1, name: 'Embedding', xp_required: 120 },
    });
  });

  it('adds each completed lesson of the quest once, at its XP', () => {
    const header = computeLocalHeader(input(['embedding-dimension', 'lesson-1', 'embedding-dimension', 'not-in-quest']));
    expect(header.xp).toBe(100);
    expect(header.lessons_completed).toBe(2);
    expect(header.completed_lessons).toEqual(['lesson-1', 'embedding-dimension']);
    expect(header.xp_to_go).toBe(20);
  });

  it('levels up when the XP reaches the next step', () => {
    const header = computeLocalHeader(input(['lesson-1', 'lesson-2', 'lesson-3']));
    expect(header.level).toEqual({ number: 1, name: 'Embedding' });
    expect(header).toMatchObject({ xp: 150, xp_into_level: 30, xp_for_level: 160, xp_to_go: 130 });
  });

  it('has no next level at the top of the curve', () => {
    const position = levelFor(1000, levels.results);
    expect(position).toMatchObject({ level: { number: 2 }, next_level: null, xp_for_level: 0, xp_to_go: 0, xp_into_level: 720 });
  });

  it('rounds the percent down like the server', () => {
    expect(percent(1, 94)).toBe(1);
    expect(percent(93, 94)).toBe(98);
    expect(percent(94, 94)).toBe(100);
    expect(percent(0, 0)).toBe(0);
  });
});

// The same vectors as the server's progress/tests/test_header_vectors.py: the level rule written
// here cannot drift from Python's.
describe('signed-out header on the shared vectors', () => {
  for (const vector of sharedVectors.vectors) {
    it(vector.name, () => {
      const lessons = vector.lesson_xp.map((xp, i) => ({ ...quest.lessons[0], slug: `lesson-${i}`, xp }));
      const header = computeLocalHeader({
        quest: 'transformers',
        lessons,
        completed: vector.completed.map((i) => `lesson-${i}`),
        curve: vector.curve,
        achievementsTotal: 10,
      });
      expect(header).toMatchObject(vector.expected);
    });
  }
});

describe('computeLocalDay', () => {
  const xp = new Map([
    ['a', 20],
    ['b', 30],
    ['c', 15],
  ]);
  const at = (lesson: string, when: string) => ({ lesson, occurred_at: new Date(when).toISOString() });
  const now = new Date(2026, 11, 10, 15, 0);

  it('adds up today’s XP and counts the days in a row', () => {
    const events = [at('a', '2026-12-08T10:00'), at('b', '2026-12-09T10:00'), at('c', '2026-12-10T09:00')];
    expect(computeLocalDay(events, xp, now)).toEqual({ xpToday: 15, streak: 3, today: 'done' });
  });

  it('keeps yesterday’s run open with today still to do', () => {
    const events = [at('a', '2026-12-08T10:00'), at('b', '2026-12-09T23:50')];
    expect(computeLocalDay(events, xp, now)).toEqual({ xpToday: 0, streak: 2, today: 'to_do' });
  });

  it('counts a completion at 23:51 in the learner’s zone on that day, until their midnight', () => {
    const events = [at('a', '2026-03-09T22:00:00Z'), at('b', '2026-03-10T22:51:00Z')]; // 23:51 in Paris
    expect(computeLocalDay(events, xp, new Date('2026-03-10T22:59:00Z'), 'Europe/Paris')).toEqual({ xpToday: 30, streak: 2, today: 'done' });
    expect(computeLocalDay(events, xp, new Date('2026-03-10T23:01:00Z'), 'Europe/Paris')).toEqual({ xpToday: 0, streak: 2, today: 'to_do' });
  });

  it('keeps a spring-forward day of 23 hours one day', () => {
    const events = [at('a', '2026-03-08T05:30:00Z'), at('b', '2026-03-09T03:50:00Z')]; // 00:30 EST, 23:50 EDT
    expect(computeLocalDay(events, xp, new Date('2026-03-09T03:55:00Z'), 'America/New_York')).toEqual({ xpToday: 50, streak: 1, today: 'done' });
  });

  it('ends the run at a missed day', () => {
    const events = [at('a', '2026-12-07T10:00'), at('b', '2026-12-08T10:00')];
    expect(computeLocalDay(events, xp, now)).toEqual({ xpToday: 0, streak: 0, today: 'none' });
    expect(computeLocalDay([], xp, now)).toEqual({ xpToday: 0, streak: 0, today: 'none' });
  });
});
