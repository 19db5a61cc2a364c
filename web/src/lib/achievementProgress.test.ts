import { describe, expect, it } from 'vitest';
import { quest } from '@/test/fixtures';
import { localAchievementProgress, progressWords, type AchievementRule } from './achievementProgress';
import type { QuestDetail } from './types';

const rule = (kind: AchievementRule['kind'], extra: Partial<AchievementRule> = {}): AchievementRule => ({
  kind,
  summary: '',
  threshold: null,
  tag: null,
  quest: null,
  ...extra,
});

// The fixture quest: 94 lessons of 50 XP; two of them tagged tokenization, one unpublished lesson too.
const tagged: QuestDetail = {
  ...quest,
  lessons: quest.lessons.map((lesson, index) =>
    index < 2 ? { ...lesson, tags: ['tokenization'] } : index === 2 ? { ...lesson, tags: ['tokenization'], published: false } : lesson,
  ),
};
const other: QuestDetail = {
  ...quest,
  slug: 'other',
  lesson_count: 2,
  lessons: [
    { ...quest.lessons[0], slug: 'other-1', xp: 20 },
    { ...quest.lessons[0], slug: 'other-2', xp: 20 },
  ],
};

describe('local achievement progress', () => {
  it('counts lessons completed over every known quest, once each, ignoring unknown lessons', () => {
    const facts = { quests: [tagged, other], completed: ['lesson-1', 'lesson-1', 'other-1', 'somewhere-else'] };
    expect(localAchievementProgress(rule('lessons_completed', { threshold: 5 }), facts)).toEqual({ current: 2, target: 5 });
  });

  it('takes XP from the quest outlines, as the signed-out header does', () => {
    const facts = { quests: [tagged, other], completed: ['lesson-1', 'embedding-dimension', 'other-2'] };
    expect(localAchievementProgress(rule('xp_total', { threshold: 500 }), facts)).toEqual({ current: 120, target: 500 });
  });

  it('caps the progress at the target, as the server does', () => {
    const facts = { quests: [tagged], completed: ['lesson-1', 'lesson-2', 'lesson-3'] };
    expect(localAchievementProgress(rule('lessons_completed', { threshold: 1 }), facts)).toEqual({ current: 1, target: 1 });
  });

  it('measures the percent of the quest the rule names, rounded down', () => {
    const completed = Array.from({ length: 11 }, (_, index) => `lesson-${index + 1}`);
    const facts = { quests: [other, tagged], completed };
    // 11 of 94 = 11.7%
    expect(localAchievementProgress(rule('quest_percent', { threshold: 50, quest: 'transformers' }), facts)).toEqual({ current: 11, target: 50 });
    expect(localAchievementProgress(rule('quest_percent', { threshold: 50, quest: 'unknown' }), facts)).toBeNull();
  });

  it('counts the published lessons carrying the tag', () => {
    const facts = { quests: [tagged], completed: ['lesson-2', 'lesson-3'] };
    expect(localAchievementProgress(rule('tag_completed', { tag: 'tokenization' }), facts)).toEqual({ current: 1, target: 2 });
    expect(localAchievementProgress(rule('tag_completed', { tag: 'attention' }), facts)).toBeNull();
  });

  it.each(['streak_days', 'exercises_passed', 'comments_posted', 'reports_accepted'] as const)('cannot measure %s on the device', (kind) => {
    expect(localAchievementProgress(rule(kind, { threshold: 3 }), { quests: [tagged], completed: ['lesson-1'] })).toBeNull();
  });
});

describe('progress in words', () => {
  it.each([
    [rule('lessons_completed'), { current: 3, target: 5 }, '3 of 5 lessons'],
    [rule('lessons_completed'), { current: 0, target: 1 }, '0 of 1 lesson'],
    [rule('xp_total'), { current: 40, target: 120 }, '40 of 120 XP'],
    [rule('quest_percent'), { current: 12, target: 80 }, '12% of 80%'],
    [rule('streak_days'), { current: 2, target: 7 }, '2 of 7 days in a row'],
    [rule('exercises_passed'), { current: 1, target: 5 }, '1 of 5 exercises passed'],
    [rule('comments_posted'), { current: 0, target: 1 }, '0 of 1 comment'],
    [rule('reports_accepted'), { current: 0, target: 3 }, '0 of 3 reports accepted'],
    [rule('tag_completed', { tag: 'tokenization' }), { current: 1, target: 6 }, '1 of 6 lessons tagged tokenization'],
  ])('%#: %s', (achievementRule, measure, words) => {
    expect(progressWords(achievementRule, measure)).toBe(words);
  });
});
