import { api, data } from './api';
import { deviceId, readAnswers, readEvents, removeAnswers, removeEvents } from './progressStore';
import type { SyncAnswersInput, SyncAnswersResult, SyncInput, SyncResult } from './types';
import rules from './rules.json';

/** The most either sync endpoint takes in one request (the server's rules, lib/rules.json). */
const MAX_BATCH = Math.min(rules.sync_batch.progress_events, rules.sync_batch.check_answers);

/** What the sign-in says: how many lessons this device handed over (completions taken, lessons its answers completed). */
export interface SyncOutcome {
  synced: number;
}

/** What a listener hears of each sync's answer: what it unlocked, to celebrate. */
export type SyncNews = Pick<SyncResult | SyncAnswersResult, 'new_achievements'>;

const listeners = new Set<(result: SyncNews) => void>();

/** Calls `listener` with each sync's answer (its `new_achievements` are celebrated). */
export function onSynced(listener: (result: SyncNews) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let inFlight: Promise<SyncOutcome | null> | null = null;

/**
 * Hands over what this device kept: first the answers to checks (to /me/checks/sync, which
 * grades them again and completes the lessons whose checks they pass), then the completions
 * (to /me/progress/sync), clearing what the server answered. A rejected answer or event
 * (unknown, a time in the future, ...) is refused for good, so it is cleared too rather than
 * sent on every sign-in. A lesson with checks is completed by its answers only: the device's
 * completion of a lesson it sent answers for is dropped, not sent to be refused. Answers null
 * when there was nothing to send; `synced` counts the lessons handed over, for "N lessons
 * synced from this device".
 */
export function syncLocalProgress(): Promise<SyncOutcome | null> {
  inFlight ??= run().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/** Whether this device keeps anything the server has not taken yet. */
export function hasLocalProgress(): boolean {
  return readEvents().length > 0 || readAnswers().length > 0;
}

async function run(): Promise<SyncOutcome | null> {
  if (!hasLocalProgress()) return null;
  let synced = 0;
  const answered = new Set<string>();
  for (let answers = readAnswers(); answers.length > 0; answers = readAnswers()) {
    const batch = answers.slice(0, MAX_BATCH);
    const body: SyncAnswersInput = {
      device_id: deviceId(),
      answers: batch.map(({ id, check, answer, answered_at, revealed }) => ({ id, check, answer, answered_at, revealed })),
    };
    const result = await data(api.POST('/api/v1/me/checks/sync', { body }));
    batch.forEach((answer) => answered.add(answer.lesson));
    synced += result.lessons_completed.length;
    removeAnswers(batch.map((answer) => answer.id));
    listeners.forEach((listener) => listener(result));
  }
  const byChecks = readEvents().filter((event) => answered.has(event.lesson));
  if (byChecks.length) removeEvents(byChecks.map((event) => event.id));
  for (let events = readEvents(); events.length > 0; events = readEvents()) {
    const batch = events.slice(0, MAX_BATCH);
    // No cursor: the app refetches the whole state after a sync, so it needs no `changes`.
    const body: SyncInput = { device_id: deviceId(), events: batch };
    const result = await data(api.POST('/api/v1/me/progress/sync', { body }));
    synced += batch.length - result.rejected.length;
    removeEvents(batch.map((event) => event.id));
    listeners.forEach((listener) => listener(result));
  }
  return { synced };
}
