// Progress kept on this device while signed out: the very events that
// POST /api/v1/me/progress/sync takes, and the answers to checks that POST /api/v1/me/checks/sync
// takes, so signing in hands them over unchanged.
import { useSyncExternalStore } from 'react';
import type { LessonCompletedEvent, SyncAnswer } from './types';

const EVENTS_KEY = 'lp.progress.events';
const CHECKS_KEY = 'lp.progress.checks';
const DEVICE_KEY = 'lp.progress.device';
const CHANGE_EVENT = 'lp-progress-change';

export function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // RFC 4122 v4 from getRandomValues, for browsers without randomUUID (non-secure contexts).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b: number) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function isEvent(value: unknown): value is LessonCompletedEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return (
    typeof event.id === 'string' &&
    event.type === 'lesson_completed' &&
    typeof event.lesson === 'string' &&
    typeof event.occurred_at === 'string'
  );
}

export function readEvents(): LessonCompletedEvent[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(EVENTS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isEvent) : [];
  } catch {
    return [];
  }
}

function writeEvents(events: LessonCompletedEvent[]): void {
  localStorage.setItem(EVENTS_KEY, JSON.stringify(events));
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** Slugs completed on this device, earliest completion first, each once. */
export function completedLessons(events: LessonCompletedEvent[] = readEvents()): string[] {
  const sorted = [...events].sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  return [...new Set(sorted.map((event) => event.lesson))];
}

/** Records a completion once; answers the event, or null when the lesson was already done. */
export function recordCompletion(lesson: string, now: Date = new Date()): LessonCompletedEvent | null {
  const events = readEvents();
  if (events.some((event) => event.lesson === lesson)) return null;
  const event: LessonCompletedEvent = { id: newId(), type: 'lesson_completed', lesson, occurred_at: now.toISOString() };
  writeEvents([...events, event]);
  return event;
}

/** Drops the events the server has taken (or refused for good), keeping any added meanwhile. */
export function removeEvents(ids: Iterable<string>): void {
  const done = new Set(ids);
  writeEvents(readEvents().filter((event) => !done.has(event.id)));
}

export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = `web-${newId()}`;
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

/** Calls `listener` when this tab or another one changes the stored events or answers. */
export function subscribe(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === EVENTS_KEY || event.key === CHECKS_KEY) listener();
  };
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}

let cachedRaw: string | null | undefined;
let cachedEvents: LessonCompletedEvent[] = [];

/** A stable snapshot for useSyncExternalStore. */
export function snapshot(): LessonCompletedEvent[] {
  const raw = localStorage.getItem(EVENTS_KEY);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedEvents = readEvents();
  }
  return cachedEvents;
}

/** This device's completions, re-rendering when any tab changes them. */
export function useLocalEvents(): LessonCompletedEvent[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

// --- Answers to checks, kept signed out ---------------------------------------------------------

/** An answer as POST /checks/{id}/answers takes it: the number as typed, the options picked, the items in order. */
export type CheckAnswer = { value: string } | { options: string[] } | { items: string[] };

/**
 * An answer given signed out: what /me/checks/sync takes (`revealed`: the learner had seen the
 * check's answer first), with what the device needs to show it: the lesson, and whether the
 * server graded it right.
 */
export type LocalAnswer = Omit<SyncAnswer, 'answer'> & { answer: CheckAnswer; lesson: string; correct: boolean };

/** This device's answers, oldest first, and the checks whose answer it revealed. */
export interface LocalChecks {
  answers: LocalAnswer[];
  revealed: number[];
}

function isAnswer(value: unknown): value is LocalAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const answer = value as Record<string, unknown>;
  return (
    typeof answer.id === 'string' &&
    typeof answer.check === 'number' &&
    typeof answer.lesson === 'string' &&
    typeof answer.answered_at === 'string' &&
    typeof answer.correct === 'boolean' &&
    typeof answer.revealed === 'boolean' &&
    typeof answer.answer === 'object' &&
    answer.answer !== null
  );
}

export function readChecks(): LocalChecks {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CHECKS_KEY) ?? 'null');
    const stored = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Partial<Record<keyof LocalChecks, unknown>>;
    return {
      answers: Array.isArray(stored.answers) ? stored.answers.filter(isAnswer) : [],
      revealed: Array.isArray(stored.revealed) ? stored.revealed.filter((id): id is number => typeof id === 'number') : [],
    };
  } catch {
    return { answers: [], revealed: [] };
  }
}

function writeChecks(checks: LocalChecks): void {
  if (checks.answers.length === 0 && checks.revealed.length === 0) localStorage.removeItem(CHECKS_KEY);
  else localStorage.setItem(CHECKS_KEY, JSON.stringify(checks));
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export const readAnswers = (): LocalAnswer[] => readChecks().answers;

/** Keeps an answer the server graded; it is marked revealed when the device showed that check's answer before. */
export function recordAnswer(
  given: { check: number; lesson: string; answer: CheckAnswer; correct: boolean },
  now: Date = new Date(),
): LocalAnswer {
  const checks = readChecks();
  const answer: LocalAnswer = { id: newId(), ...given, answered_at: now.toISOString(), revealed: checks.revealed.includes(given.check) };
  writeChecks({ ...checks, answers: [...checks.answers, answer] });
  return answer;
}

/** Notes that the learner saw the check's answer: its answers from now on pay no XP. */
export function recordReveal(check: number): void {
  const checks = readChecks();
  if (checks.revealed.includes(check)) return;
  writeChecks({ ...checks, revealed: [...checks.revealed, check] });
}

/** Drops the answers the server has taken (or refused for good), keeping any given meanwhile; the reveals go with the last answer. */
export function removeAnswers(ids: Iterable<string>): void {
  const done = new Set(ids);
  const checks = readChecks();
  const answers = checks.answers.filter((answer) => !done.has(answer.id));
  writeChecks({ answers, revealed: answers.length ? checks.revealed : [] });
}

let cachedChecksRaw: string | null | undefined;
let cachedChecks: LocalChecks = { answers: [], revealed: [] };

/** A stable snapshot of the answers and reveals, for useSyncExternalStore. */
export function checksSnapshot(): LocalChecks {
  const raw = localStorage.getItem(CHECKS_KEY);
  if (raw !== cachedChecksRaw) {
    cachedChecksRaw = raw;
    cachedChecks = readChecks();
  }
  return cachedChecks;
}

/** This device's answers to checks and its reveals, re-rendering when any tab changes them. */
export function useLocalChecks(): LocalChecks {
  return useSyncExternalStore(subscribe, checksSnapshot, checksSnapshot);
}
