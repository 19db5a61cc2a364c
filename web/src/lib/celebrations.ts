// Level-ups, achievements and daily goals met: each celebrated once per learner per device.
//
// Two paths lead here and both go through the same record, so neither shows what the other
// already showed. The fast path (`claim`) takes what an answer says is new (a completion, a sync)
// and celebrates it at once. The slow path (`observe`) compares what the app reads now
// (/me/progress, the achievements list) with what it saw before, which catches what arrived
// some other way (a graded exercise, another device). Its first look at a learner on a device
// only records a baseline: old things are never celebrated as new.
import { useSyncExternalStore } from 'react';
import type { Level } from './types';

export interface AchievementInfo {
  slug: string;
  title: string;
  /** What earned it; null when the answer at hand did not say. */
  description: string | null;
  xpBonus: number;
}

export type Celebration =
  | { kind: 'level'; key: string; level: Level; xp: number }
  | ({ kind: 'achievement'; key: string } & AchievementInfo)
  | { kind: 'goal'; key: string; goal: number; xpToday: number };

/** What the app can see about a learner now; a part left out is not compared. */
export interface Observation {
  level?: { level: Level; xp: number };
  /** The unlocked achievements. */
  achievements?: AchievementInfo[];
  /** Today's goal, `day` being today's date in the learner's zone. */
  goal?: { xp: number | null; xpToday: number; met: boolean; day: string };
}

export interface Claim {
  levelUp?: { level: Level; xp: number } | null;
  achievements?: AchievementInfo[];
}

type Part = 'level' | 'achievements' | 'goal';

interface Seen {
  /** The parts the slow path has looked at once (its baseline). */
  baseline: Part[];
  level: number;
  achievements: string[];
  goalDays: string[];
}

const PREFIX = 'lp.celebrated.';
const GOAL_DAYS_KEPT = 14;

/** The learner the record is for: their user id, or 'local' for this device signed out. */
export type Owner = string;
export const ownerOf = (userId: number | null | undefined): Owner => (userId == null ? 'local' : String(userId));

function read(owner: Owner): Seen | null {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(PREFIX + owner) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const seen = value as Partial<Seen>;
    return {
      baseline: Array.isArray(seen.baseline) ? seen.baseline : [],
      level: typeof seen.level === 'number' ? seen.level : 0,
      achievements: Array.isArray(seen.achievements) ? seen.achievements.filter((slug) => typeof slug === 'string') : [],
      goalDays: Array.isArray(seen.goalDays) ? seen.goalDays.filter((day) => typeof day === 'string') : [],
    };
  } catch {
    return null;
  }
}

function write(owner: Owner, seen: Seen): void {
  try {
    localStorage.setItem(PREFIX + owner, JSON.stringify({ ...seen, goalDays: seen.goalDays.slice(-GOAL_DAYS_KEPT) }));
  } catch {
    // Storage full or blocked: at worst something is celebrated twice.
  }
}

const empty = (): Seen => ({ baseline: [], level: 0, achievements: [], goalDays: [] });

/** What an answer says is new: celebrated unless this device already celebrated it. */
export function claim(owner: Owner, news: Claim): Celebration[] {
  const seen = read(owner) ?? empty();
  const found: Celebration[] = [];
  if (news.levelUp && news.levelUp.level.number > seen.level) {
    seen.level = news.levelUp.level.number;
    found.push(levelCelebration(news.levelUp));
  }
  for (const achievement of news.achievements ?? []) {
    if (seen.achievements.includes(achievement.slug)) continue;
    seen.achievements.push(achievement.slug);
    found.push({ kind: 'achievement', key: `achievement:${achievement.slug}`, ...achievement });
  }
  write(owner, seen);
  enqueue(found);
  return found;
}

/** What the app reads now, against what it saw: the differences are celebrated, except on a first look. */
export function observe(owner: Owner, now: Observation): Celebration[] {
  const seen = read(owner) ?? empty();
  const found: Celebration[] = [];
  const first = (part: Part) => {
    if (seen.baseline.includes(part)) return false;
    seen.baseline.push(part);
    return true;
  };
  if (now.level) {
    const isFirst = first('level');
    if (now.level.level.number > seen.level) {
      if (!isFirst) found.push(levelCelebration(now.level));
      seen.level = now.level.level.number;
    }
  }
  if (now.achievements) {
    const isFirst = first('achievements');
    for (const achievement of now.achievements) {
      if (seen.achievements.includes(achievement.slug)) continue;
      seen.achievements.push(achievement.slug);
      if (!isFirst) found.push({ kind: 'achievement', key: `achievement:${achievement.slug}`, ...achievement });
    }
  }
  if (now.goal) {
    const isFirst = first('goal');
    const { xp, xpToday, met, day } = now.goal;
    if (met && xp !== null && !seen.goalDays.includes(day)) {
      seen.goalDays.push(day);
      if (!isFirst) found.push({ kind: 'goal', key: `goal:${day}`, goal: xp, xpToday });
    }
  }
  write(owner, seen);
  enqueue(found);
  return found;
}

/**
 * A new account starts from what this device celebrated signed out (its level), with no
 * achievement yet: what the sign-up's sync then brings is new, and celebrated.
 */
export function adoptDeviceRecord(owner: Owner): void {
  if (read(owner)) return;
  const device = read('local');
  write(owner, { baseline: ['level', 'achievements'], level: device?.level ?? 0, achievements: [], goalDays: [] });
}

/** New achievements as an answer names them, with what earned each from the achievements list when it is at hand. */
export function withDescriptions(
  found: { slug: string; title: string; xp_bonus: number }[],
  described: { slug: string; description: string }[],
): AchievementInfo[] {
  return found.map((achievement) => ({
    slug: achievement.slug,
    title: achievement.title,
    description: described.find((known) => known.slug === achievement.slug)?.description ?? null,
    xpBonus: achievement.xp_bonus,
  }));
}

function levelCelebration({ level, xp }: { level: Level; xp: number }): Celebration {
  return { kind: 'level', key: `level:${level.number}`, level, xp };
}

// The celebrations waiting to be shown, for whichever component shows them.

let queue: Celebration[] = [];
// A completion in this page's life, signed in: the moment to ask for a daily goal (once).
let completedNow = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function enqueue(found: Celebration[]): void {
  const fresh = found.filter((item) => !queue.some((queued) => queued.key === item.key));
  if (fresh.length === 0) return;
  // A level-up supersedes a lower one still waiting.
  const top = fresh.filter((item) => item.kind === 'level').at(-1);
  queue = [...queue.filter((item) => !(top && item.kind === 'level')), ...fresh.filter((item) => item.kind !== 'level' || item === top)];
  notify();
}

/** Removes a shown celebration from the queue. */
export function settle(key: string): void {
  const next = queue.filter((item) => item.key !== key);
  if (next.length === queue.length) return;
  queue = next;
  notify();
}

export function noteCompletion(): void {
  if (completedNow) return;
  completedNow = true;
  notify();
}

/** Forgets the queue and the completion (each test starts from a fresh page). */
export function resetCelebrations(): void {
  queue = [];
  completedNow = false;
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCelebrationQueue(): Celebration[] {
  return useSyncExternalStore(
    subscribe,
    () => queue,
    () => queue,
  );
}

export function useCompletedNow(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => completedNow,
    () => completedNow,
  );
}
