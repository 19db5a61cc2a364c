// Progress kept on this device while signed out: the very events that
// POST /api/v1/me/progress/sync takes, so signing in hands them over unchanged.
import { useSyncExternalStore } from 'react';
import type { LessonCompletedEvent } from './types';

const EVENTS_KEY = 'lp.progress.events';
const DEVICE_KEY = 'lp.progress.device';
const CHANGE_EVENT = 'lp-progress-change';

function newId(): string {
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

/** Calls `listener` when this tab or another one changes the stored events. */
export function subscribe(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === EVENTS_KEY) listener();
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
