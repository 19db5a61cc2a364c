import { allauthConfig, signedInSession, signedOutSession } from './mockApi';
import type { AchievementList, Calendar, LessonDetail, LevelCurve, MyLeague, ProgressSummary, QuestDetail, SyncResult } from '@/lib/types';

export const levels: LevelCurve = {
  count: 3,
  results: [
    { number: 0, name: 'Token', xp_required: 0 },
    { number: 1, name: 'Embedding', xp_required: 120 },
    { number: 2, name: 'Positional Encoding', xp_required: 280 },
  ],
};

const outline = Array.from({ length: 94 }, (_, index) => ({
  slug: index === 11 ? 'embedding-dimension' : `lesson-${index + 1}`,
  number: index + 1,
  title: index === 11 ? 'Embedding dimension (d_model)' : `Lesson ${index + 1}`,
  estimated_minutes: 10,
  xp: 50,
  tags: [],
  published: true,
  completed: null,
}));

export const quest: QuestDetail = {
  slug: 'transformers',
  title: 'How transformer language models work',
  description: 'From tokens to text.',
  lesson_count: 94,
  lessons_completed: null,
  percent_complete: null,
  units: [{ title: null, lessons: outline.map((lesson) => lesson.slug) }],
  lessons: outline,
};

export const achievements: AchievementList = {
  count: 10,
  unlocked_count: 0,
  results: [],
};

export const lesson: LessonDetail = {
  slug: 'embedding-dimension',
  title: 'Embedding dimension (d_model)',
  summary: 'd_model is the width of the vector every token carries.',
  estimated_minutes: 10,
  xp: 50,
  tags: ['capacity', 'd-model', 'scaling'],
  quest: { slug: 'transformers', title: 'How transformer language models work' },
  position: 12,
  number: 12,
  published: true,
  updated_at: '2026-11-30T10:00:00Z',
  blocks: [
    { id: 54, kind: 'prose', markdown: '**d_model** is the width', html: '<p><strong>d_model</strong> is the width</p>' },
    { id: 57, kind: 'table', caption: 'Width and depth', columns: ['Model', 'd_model'], rows: [['GPT-2', '768']] },
    { id: 58, kind: 'code', title: 'Estimating parameter count', language: 'python', source: 'def estimate(d):\n    return 12 * d**2\n' },
    { id: 59, kind: 'callout', markdown: 'The estimate lands close', html: '<p>The estimate lands close</p>', style: 'note' },
  ],
  links: [{ title: 'Attention Is All You Need', url: 'https://arxiv.org/abs/1706.03762' }],
  exercise: null,
  comment_count: 0,
  previous: { slug: 'token-embeddings', title: 'Token embeddings' },
  next: { slug: 'embedding-geometry', title: 'What lives in embedding space' },
  draft_of: null,
};

/** Every request the reference lesson page makes for a visitor (signed out, no comments yet). */
export function signedOutLessonRoutes(page: LessonDetail = lesson) {
  return {
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /api/v1/session': signedOutSession,
    [`GET /api/v1/lessons/${page.slug}/`]: { body: page },
    'GET /api/v1/levels/': { body: levels },
    'GET /api/v1/quests/transformers/': { body: quest },
    'GET /api/v1/achievements/': { body: achievements },
    [`GET /api/v1/lessons/${page.slug}/comments/`]: { body: { count: 0, results: [] } },
  };
}

/** GET /api/v1/me/progress for a learner who has not started: override what a test needs. */
export function progressSummary(overrides: Partial<ProgressSummary> = {}): ProgressSummary {
  return {
    quest: 'transformers',
    level: { number: 0, name: 'Token' },
    xp: 0,
    xp_into_level: 0,
    xp_for_level: 120,
    xp_to_go: 120,
    next_level: { number: 1, name: 'Embedding', xp_required: 120 },
    lessons_completed: 0,
    lessons_total: 94,
    percent_complete: 0,
    achievements_unlocked: 0,
    achievements_total: 10,
    streak: { current: 0, best: 0, today: 'none', freezes: 0 },
    daily_goal: { xp: null, xp_today: 0, met: false, chosen: false },
    completed_lessons: [],
    ...overrides,
  };
}

/** GET /api/v1/me/league for a learner not placed yet in the week of Monday 9 March 2026 (UTC): override what a test needs. */
export function myLeague(overrides: Partial<MyLeague> = {}): MyLeague {
  return {
    participating: true,
    placed: false,
    waiting: false,
    tier: { rank: 2, name: 'Silver' },
    cohort_size: 30,
    week_first_day: '2026-03-09',
    week_last_day: '2026-03-15',
    ends_at: '2026-03-16T00:00:00Z',
    members: [],
    promotion_line: null,
    demotion_line: null,
    result: null,
    ...overrides,
  };
}

/** GET /api/v1/me/calendar on Thursday 26 November 2026: the window starts 83 days earlier. */
export const calendar: Calendar = {
  first_day: '2026-09-04',
  last_day: '2026-11-26',
  days: [
    { day: '2026-09-04', xp: 20, goal_met: true, frozen: false },
    { day: '2026-11-03', xp: 40, goal_met: true, frozen: false },
    { day: '2026-11-04', xp: 0, goal_met: false, frozen: true },
    { day: '2026-11-26', xp: 130, goal_met: true, frozen: false },
  ],
};

export { profile } from './mockApi';

/** POST /api/v1/me/progress/sync's answer: the header after the sync, and what it did. */
export function syncResult(overrides: Partial<SyncResult> = {}): SyncResult {
  return { ...progressSummary(), rejected: [], cursor: 'c1', changes: [], new_achievements: [], ...overrides };
}

/** The requests every page makes for a signed-in learner around its own (top bar, game bar, badges). */
export function signedInPageRoutes() {
  return {
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/progress': { body: progressSummary() },
    'GET /api/v1/me/reviews/summary': { body: { due: 0, next_due_at: null } },
    'GET /api/v1/achievements/': { body: { count: 10, unlocked_count: 0, results: [] } },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
  };
}
