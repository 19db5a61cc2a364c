import { api } from './api';
import { deviceId, readEvents, removeEvents } from './progressStore';
import type { SyncInput, SyncResult } from './types';

const MAX_BATCH = 500;

/** The last batch's answer, and how many events the server took over all batches. */
export type SyncOutcome = SyncResult & { synced: number };

let inFlight: Promise<SyncOutcome | null> | null = null;

/**
 * Posts the completions this device kept while signed out to /me/progress/sync and clears
 * the ones the server answered. A rejected event (unknown lesson, a time in the future, ...) is
 * refused for good, so it is cleared too rather than sent on every sign-in. Answers null when
 * there was nothing to send; `synced` counts the events taken (sent less rejected), for "N
 * lessons synced from this device".
 */
export function syncLocalProgress(): Promise<SyncOutcome | null> {
  inFlight ??= run().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function run(): Promise<SyncOutcome | null> {
  let result: SyncResult | null = null;
  let synced = 0;
  for (let events = readEvents(); events.length > 0; events = readEvents()) {
    const batch = events.slice(0, MAX_BATCH);
    // No cursor: the app refetches the whole state after a sync, so it needs no `changes`.
    const body: SyncInput = { device_id: deviceId(), events: batch };
    result = await api<SyncResult>('me/progress/sync', { method: 'POST', body });
    synced += batch.length - result.rejected.length;
    removeEvents(batch.map((event) => event.id));
  }
  return result && { ...result, synced };
}
