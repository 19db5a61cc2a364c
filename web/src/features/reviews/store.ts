// Reviews answered on this device with no network: the very answers POST /api/v1/me/reviews/sync
// takes, kept per learner until the server has graded and scheduled them (as of when each was
// given: an answer synced days late schedules as if it had arrived at once).
import { useSyncExternalStore } from 'react';
import { api, data } from '@/lib/api';
import { deviceId, newId, type CheckAnswer } from '@/lib/progressStore';
import type { SyncReview, SyncReviewsInput, SyncReviewsResult } from '@/lib/types';
import rules from '@/lib/rules.json';

const CHANGE_EVENT = 'lp-reviews-change';
/** The most /me/reviews/sync takes in one request (the server's rules, lib/rules.json). */
const MAX_BATCH = rules.sync_batch.reviews;

export type LocalReview = SyncReview & { answer: CheckAnswer };

const keyOf = (user: number) => `lp.reviews.answers.${user}`;

function isReview(value: unknown): value is LocalReview {
  if (typeof value !== 'object' || value === null) return false;
  const review = value as Record<string, unknown>;
  return (
    typeof review.id === 'string' &&
    typeof review.check === 'number' &&
    typeof review.answered_at === 'string' &&
    typeof review.answer === 'object' &&
    review.answer !== null
  );
}

/** The learner's reviews kept on this device, oldest first. */
export function readReviews(user: number): LocalReview[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(keyOf(user)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isReview) : [];
  } catch {
    return [];
  }
}

function writeReviews(user: number, reviews: LocalReview[]): void {
  if (reviews.length) localStorage.setItem(keyOf(user), JSON.stringify(reviews));
  else localStorage.removeItem(keyOf(user));
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** Keeps a review answered with no network, to be graded at the next sync. */
export function recordReview(
  user: number,
  given: { check: number; answer: CheckAnswer; duration_ms: number | null; id?: string },
  now: Date = new Date(),
): LocalReview {
  const review: LocalReview = { id: given.id ?? newId(), check: given.check, answer: given.answer, duration_ms: given.duration_ms, answered_at: now.toISOString() };
  writeReviews(user, [...readReviews(user), review]);
  return review;
}

function removeReviews(user: number, ids: Iterable<string>): void {
  const done = new Set(ids);
  writeReviews(user, readReviews(user).filter((review) => !done.has(review.id)));
}

const inFlight = new Map<number, Promise<SyncReviewsResult | null>>();

/**
 * Sends the learner's kept reviews to /me/reviews/sync and clears what it answered (a rejected
 * answer, say for a check gone, is refused for good: cleared too). Null when there was nothing
 * to send. One sync at a time per learner; the server schedules a resent answer once anyway.
 */
export function syncLocalReviews(user: number): Promise<SyncReviewsResult | null> {
  let running = inFlight.get(user);
  if (!running) {
    running = run(user).finally(() => inFlight.delete(user));
    inFlight.set(user, running);
  }
  return running;
}

async function run(user: number): Promise<SyncReviewsResult | null> {
  let total: SyncReviewsResult | null = null;
  for (let reviews = readReviews(user); reviews.length > 0; reviews = readReviews(user)) {
    const batch = reviews.slice(0, MAX_BATCH);
    const body: SyncReviewsInput = {
      device_id: deviceId(),
      answers: batch.map(({ id, check, answer, answered_at, duration_ms }) => ({ id, check, answer, answered_at, duration_ms })),
    };
    const result = await data(api.POST('/api/v1/me/reviews/sync', { body }));
    removeReviews(user, batch.map((review) => review.id));
    total = total
      ? {
          accepted: total.accepted + result.accepted,
          not_scheduled: total.not_scheduled + result.not_scheduled,
          duplicates: total.duplicates + result.duplicates,
          rejected: [...total.rejected, ...result.rejected],
          xp_awarded: total.xp_awarded + result.xp_awarded,
        }
      : result;
  }
  return total;
}

function subscribe(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith('lp.reviews.answers.')) listener();
  };
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}

const snapshots = new Map<number, { raw: string | null; reviews: LocalReview[] }>();

function snapshot(user: number): LocalReview[] {
  const raw = localStorage.getItem(keyOf(user));
  const kept = snapshots.get(user);
  if (kept && kept.raw === raw) return kept.reviews;
  const reviews = readReviews(user);
  snapshots.set(user, { raw, reviews });
  return reviews;
}

const NONE: LocalReview[] = [];

/** The learner's reviews waiting on this device, re-rendering when any tab changes them. */
export function useLocalReviews(user: number | null | undefined): LocalReview[] {
  const read = () => (user == null ? NONE : snapshot(user));
  return useSyncExternalStore(subscribe, read, read);
}
