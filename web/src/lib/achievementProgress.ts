// Progress toward an achievement in words ("3 of 5 lessons"), and, for a signed-out learner,
// the progress this device's events allow: the server answers `progress: null` to anonymous
// callers. The local numbers come from computeLocalHeader, so they are the XP, lesson count and
// percent the signed-out header shows, measured the way achievements/rules.py measures them.
import { computeLocalHeader } from './header';
import type { AchievementList, QuestDetail } from './types';

export type Achievement = AchievementList['results'][number];
export type AchievementRule = Achievement['rule'];
export interface Measure {
  current: number;
  target: number;
}

/** The quest outlines this device knows, and the lessons it completed (slugs). */
export interface LocalFacts {
  quests: QuestDetail[];
  completed: string[];
}

function questTotals(quest: QuestDetail, completed: string[]) {
  return computeLocalHeader({ quest: quest.slug, lessons: quest.lessons, completed, curve: [], achievementsTotal: 0 });
}

/**
 * Where this device stands on `rule`, capped at the target as the server caps it; null when the
 * device cannot know (streaks, exercises, comments and reports live on the server, a quest or a
 * tag whose lessons it has not loaded).
 */
export function localAchievementProgress(rule: AchievementRule, { quests, completed }: LocalFacts): Measure | null {
  const capped = (current: number, target: number): Measure => ({ current: Math.min(current, target), target });
  const threshold = rule.threshold ?? 0;
  switch (rule.kind) {
    case 'lessons_completed':
      return capped(
        quests.reduce((sum, quest) => sum + questTotals(quest, completed).lessons_completed, 0),
        threshold,
      );
    case 'xp_total':
      return capped(
        quests.reduce((sum, quest) => sum + questTotals(quest, completed).xp, 0),
        threshold,
      );
    case 'quest_percent': {
      const quest = quests.find((candidate) => candidate.slug === rule.quest);
      return quest ? capped(questTotals(quest, completed).percent_complete, threshold) : null;
    }
    case 'tag_completed': {
      const done = new Set(completed);
      const tagged = quests.flatMap((quest) => quest.lessons).filter((lesson) => lesson.published && rule.tag && lesson.tags.includes(rule.tag));
      // No lesson with the tag here: the device cannot tell how many there are.
      if (tagged.length === 0) return null;
      return capped(tagged.filter((lesson) => done.has(lesson.slug)).length, tagged.length);
    }
    default:
      return null;
  }
}

function count(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** "3 of 5 lessons", "40 of 120 XP", "12% of 80%", "1 of 4 lessons tagged tokenization"… */
export function progressWords(rule: AchievementRule, { current, target }: Measure): string {
  switch (rule.kind) {
    case 'lessons_completed':
      return `${current} of ${target} ${count(target, 'lesson')}`;
    case 'xp_total':
      return `${current} of ${target} XP`;
    case 'quest_percent':
      return `${current}% of ${target}%`;
    case 'streak_days':
      return `${current} of ${target} ${count(target, 'day')} in a row`;
    case 'exercises_passed':
      return `${current} of ${target} ${count(target, 'exercise')} passed`;
    case 'comments_posted':
      return `${current} of ${target} ${count(target, 'comment')}`;
    case 'reports_accepted':
      return `${current} of ${target} ${count(target, 'report')} accepted`;
    case 'tag_completed':
      return `${current} of ${target} ${count(target, 'lesson')} tagged ${rule.tag ?? ''}`.trim();
  }
}
